// @vitest-environment node
/** The axios transport against a real local HTTP server: statuses, bodies, query, timeout, cancel, network failure. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axiosTransport } from './axios-transport.js';
import { lazyAxiosTransport, preloadTransport } from './lazy-transport.js';
import { TransportError, type TransportRequest } from './transport.js';

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/slow') return void setTimeout(() => res.end('late'), 2_000);
    if (url.pathname === '/api/text') return void res.writeHead(502, { 'X-Trace': 'abc' }).end('bad gateway');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, query: url.search, body, token: req.headers['admin-token'] ?? null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const req = (o: Partial<TransportRequest>): TransportRequest => ({ method: 'get', baseURL: base, url: 'echo', headers: {}, timeout: 0, withCredentials: false, ...o });

describe('axiosTransport', () => {
  it('sends query, headers and body; parses JSON', async () => {
    const r = await axiosTransport(
      req({ method: 'post', params: { page: 2, ids: [1, 2], q: 'a b', skip: undefined }, data: '{"x":1}', headers: { 'content-type': 'application/json', 'admin-token': 't1' } }),
    );
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ method: 'POST', query: '?page=2&ids%5B%5D=1&ids%5B%5D=2&q=a+b', body: '{"x":1}', token: 't1' });
  });

  it('resolves error statuses with the text body and lower-case headers', async () => {
    const r = await axiosTransport(req({ url: 'text' }));
    expect(r).toMatchObject({ status: 502, data: 'bad gateway' });
    expect(r.headers['x-trace']).toBe('abc');
  });

  it('times out, cancels and fails on a refused connection with its own codes', async () => {
    await expect(axiosTransport(req({ url: 'slow', timeout: 100 }))).rejects.toMatchObject({ code: 'ECONNABORTED' });
    const ac = new AbortController();
    const pending = axiosTransport(req({ url: 'slow', signal: ac.signal }));
    ac.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ERR_CANCELED' });
    const refused = axiosTransport(req({ baseURL: 'http://127.0.0.1:1/api/' }));
    await expect(refused).rejects.toBeInstanceOf(TransportError);
    await expect(refused).rejects.toMatchObject({ code: 'ERR_NETWORK' });
  });
});

describe('lazyAxiosTransport', () => {
  it('loads axios on first use and sends through it', async () => {
    const r = await lazyAxiosTransport(req({ method: 'post', url: 'echo', data: '{"a":1}', headers: { 'admin-token': 't' } }));
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ method: 'POST', body: '{"a":1}', token: 't' });
    expect(await preloadTransport()).toBe(axiosTransport);
  });
});

