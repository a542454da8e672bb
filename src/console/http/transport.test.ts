// @vitest-environment jsdom
/**
 * The XMLHttpRequest transport (jsdom's XHR, which makes real requests) against a real local HTTP
 * server: statuses, bodies, query, headers, blobs, progress, timeout, cancel, network failure.
 * The page is on another origin (jsdom's http://localhost:3000), so the server answers CORS as
 * the console's API host does for a dev origin.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyTransport, preloadTransport } from './lazy-transport.js';
import { TransportError, type Progress, type TransportRequest } from './transport.js';
import { requestUrl, serializeParams, xhrTransport } from './xhr-transport.js';

let server: http.Server;
let base = '';
const hanging: http.ServerResponse[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', 'X-Trace, Content-Disposition');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
      return void res.writeHead(204).end();
    }
    const url = new URL(req.url ?? '/', 'http://x');
    // never answers until the test ends: timeouts and cancellation meet a request in flight
    if (url.pathname === '/api/hang') return void hanging.push(res);
    if (url.pathname === '/api/text') return void res.writeHead(502, { 'X-Trace': 'abc' }).end('bad gateway');
    if (url.pathname === '/api/file') return void res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="a.csv"' }).end('a,b\n1,2\n');
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, query: url.search, body: body.length > 200 ? body.length : body, token: req.headers['admin-token'] ?? null, type: req.headers['content-type'] ?? null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(async () => {
  for (const res of hanging) res.end();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const req = (o: Partial<TransportRequest>): TransportRequest => ({ method: 'get', baseURL: base, url: 'echo', headers: {}, timeout: 0, withCredentials: false, ...o });

describe('query strings as axios wrote them', () => {
  const cases: Array<Record<string, unknown>> = [
    { page: 2, ids: [1, 2], q: 'a b', skip: undefined, none: null },
    { keyword: '店铺 & co: $1,5 (a)!~*', env: 'prod', flag: true, off: false, zero: 0 },
    { range: ['2026-01-01', '2026-02-01'], 'tags[]': ['x', 'y'], nested: { a: 1, b: [1, 2], c: { d: 'e' }, n: null } },
    { rows: [{ id: 1 }, { id: 2, x: [3] }], 'json{}': { a: [1] }, at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), ' spaced ': 's', mixed: [1, null, 'a'] },
    {},
  ];
  it.each(cases.map((c, i) => [i, c] as const))('case %i', (_, params) => {
    expect(requestUrl({ baseURL: '/api/', url: 'admin/shop/list', params })).toBe(axios.getUri({ baseURL: '/api/', url: 'admin/shop/list', params }));
  });

  it('joins base and path, keeps an absolute URL and an existing query, drops a hash', () => {
    for (const c of [
      { baseURL: 'https://admindev.example.com/api/', url: '/admin/x', params: { a: 1 } },
      { baseURL: '/api/', url: 'http://other.example.com/y?b=2#top', params: { a: 1 } },
      { baseURL: '/api', url: 'common/config' },
    ])
      expect(requestUrl(c)).toBe(axios.getUri(c));
    expect(serializeParams({ a: [] })).toBe('');
  });
});

describe('xhrTransport', () => {
  it('sends query, headers and body; parses JSON', async () => {
    const r = await xhrTransport(
      req({ method: 'post', params: { page: 2, ids: [1, 2], q: 'a b', skip: undefined }, data: '{"x":1}', headers: { 'content-type': 'application/json', 'admin-token': 't1' } }),
    );
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ method: 'POST', query: '?page=2&ids%5B%5D=1&ids%5B%5D=2&q=a+b', body: '{"x":1}', token: 't1', type: 'application/json' });
    expect(r.headers['content-type']).toBe('application/json');
  });

  it('resolves error statuses with the text body and lower-case headers', async () => {
    const r = await xhrTransport(req({ url: 'text' }));
    expect(r).toMatchObject({ status: 502, data: 'bad gateway' });
    expect(r.headers['x-trace']).toBe('abc');
  });

  it('reads a blob with its headers and reports download progress', async () => {
    const seen: Progress[] = [];
    const r = await xhrTransport(req({ url: 'file', responseType: 'blob', onDownloadProgress: (e) => seen.push(e) }));
    expect(r.data).toBeInstanceOf(Blob);
    expect(await (r.data as Blob).text()).toBe('a,b\n1,2\n');
    expect(r.headers['content-disposition']).toBe('attachment; filename="a.csv"');
    expect(seen.at(-1)?.loaded).toBe(8);
  });

  it('sends FormData as multipart and reports upload progress', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x'.repeat(50_000)], { type: 'text/plain' }), 'a.txt');
    const seen: Progress[] = [];
    const r = await xhrTransport(req({ method: 'post', data: form, onUploadProgress: (e) => seen.push(e) }));
    expect((r.data as { type: string }).type).toMatch(/^multipart\/form-data; boundary=/);
    expect((r.data as { body: number }).body).toBeGreaterThan(50_000);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)?.loaded).toBeGreaterThan(50_000);
  });

  it('times out, cancels and fails on a refused connection with its own codes', async () => {
    await expect(xhrTransport(req({ url: 'hang', timeout: 100 }))).rejects.toMatchObject({ code: 'ECONNABORTED' });
    const ac = new AbortController();
    const pending = xhrTransport(req({ url: 'hang', signal: ac.signal }));
    ac.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ERR_CANCELED', name: 'CanceledError' });
    await expect(xhrTransport(req({ signal: AbortSignal.abort() }))).rejects.toMatchObject({ code: 'ERR_CANCELED' });
    const refused = xhrTransport(req({ baseURL: 'http://127.0.0.1:1/api/' }));
    await expect(refused).rejects.toBeInstanceOf(TransportError);
    await expect(refused).rejects.toMatchObject({ code: 'ERR_NETWORK' });
  });
});

describe('lazyTransport', () => {
  it('loads the transport on first use and sends through it', async () => {
    const r = await lazyTransport(req({ method: 'post', url: 'echo', data: '{"a":1}', headers: { 'admin-token': 't' } }));
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ method: 'POST', body: '{"a":1}', token: 't' });
    expect(await preloadTransport()).toBe(xhrTransport);
  });
});
