// @db both — the request limit keeps its counters in the database store
/**
 * The request limit (@fastify/rate-limit with the database store, issue 12): per address on
 * every route, counted before the login check, a lower one for sign-in, HTTP 429 + Retry-After +
 * the envelope 42901, and one count shared by two app instances on the same database.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { RateLimitCounters } from '../../server/auth/rate-limit-store.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

const LIMIT = 8;
const LOGIN_LIMIT = 3;
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ config: { trustProxy: true, rateLimitPerMinute: LIMIT, rateLimitLoginPerMinute: LOGIN_LIMIT } });
});
afterAll(async () => {
  await s?.close();
});

function from(ip: string): ApiClient {
  const c = s.anon();
  const request = c.request.bind(c);
  c.request = (method, p, opts = {}) => request(method, p, { ...opts, headers: { 'x-forwarded-for': ip, ...opts.headers } });
  return c;
}

describe('settings', () => {
  it('defaults: 1200 requests a minute per address, 60 sign-ins; 0 turns the limit off', () => {
    expect(loadConfig({})).toMatchObject({ rateLimitPerMinute: 1200, rateLimitLoginPerMinute: 60 });
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBe(0);
  });
});

describe('request limit per address', () => {
  it(`the ${LIMIT + 1}th request in a minute gets HTTP 429, Retry-After and the envelope 42901 — before the login check`, async () => {
    const c = from('198.51.100.1');
    for (let i = 0; i < LIMIT; i++) {
      const r = await c.get('User/Get');
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(20001);
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBe(LIMIT - i - 1);
    }
    const r = await c.get('User/Get');
    expect(r.status).toBe(429);
    expect(r.body.code).toBe(42901);
    expect(r.body.msg).toMatch(/too many requests, try again in \d+ s \/ 请求过于频繁/);
    expect(r.body.data.retry_after).toBeGreaterThan(0);
    expect(r.body.data.retry_after).toBeLessThanOrEqual(60);
    expect(Number(r.headers.get('retry-after'))).toBe(r.body.data.retry_after);
    // any route, public or not
    expect((await c.get('/api/common/config')).status).toBe(429);
    // another address is not held
    expect((await from('198.51.100.2').get('User/Get')).body.code).toBe(20001);
  });

  it(`sign-in has its own limit (${LOGIN_LIMIT} a minute), apart from the global count`, async () => {
    const c = from('198.51.100.3');
    for (let i = 0; i < LOGIN_LIMIT; i++) expect((await c.post('user/login', { email: 'x@example.com' })).body.code).toBe(40001);
    const r = await c.post('user/login', { email: 'x@example.com' });
    expect(r.status).toBe(429);
    expect(r.body.code).toBe(42901);
    // the other routes still answer this address
    expect((await c.get('User/Get')).body.code).toBe(20001);
  });

  it('the count is kept in the database, and a second instance on it adds to the same count', async () => {
    const c = from('198.51.100.4');
    for (let i = 0; i < 5; i++) expect((await c.get('User/Get')).status).toBe(200);
    let second: FastifyInstance | null = null;
    try {
      second = await buildApp({ config: s.config, db: s.db, jobs: s.app.jobs });
      // the first instance writes what it counted within a second
      let hits = 0;
      for (let i = 0; i < 60 && hits < 5; i++) {
        const row = await s.db.query<{ hits: number }>(`SELECT hits FROM rate_limit_hit WHERE key = '198.51.100.4'`);
        hits = row.rows[0]?.hits ?? 0;
        if (hits < 5) await new Promise((res) => setTimeout(res, 100));
      }
      expect(hits).toBe(5);
      const call = () => second!.inject({ method: 'GET', url: '/api/admin/User/Get', headers: { 'x-forwarded-for': '198.51.100.4' } });
      for (let i = 5; i < LIMIT; i++) expect((await call()).statusCode).toBe(200);
      const held = await call();
      expect(held.statusCode).toBe(429);
      expect(held.json()).toMatchObject({ code: 42901 });
    } finally {
      await second?.close();
    }
  });
});

describe('the store', () => {
  it('counts locally between writes and resets with the window', async () => {
    const counters = new RateLimitCounters(s.db, { flushMs: 60_000 });
    try {
      const a = await counters.incr('unit-key', 60_000);
      expect(a.current).toBe(1);
      const b = await counters.incr('unit-key', 60_000);
      expect(b.current).toBe(2);
      expect(b.ttl).toBeGreaterThan(55_000);
      // not written yet: one write per flush, not per hit
      expect((await s.db.query<{ hits: number }>(`SELECT hits FROM rate_limit_hit WHERE key = 'unit-key'`)).rows[0].hits).toBe(1);
      await counters.flush();
      expect((await s.db.query<{ hits: number }>(`SELECT hits FROM rate_limit_hit WHERE key = 'unit-key'`)).rows[0].hits).toBe(2);
      // a window of 50 ms: over → a new count from 1
      await counters.incr('short-key', 50);
      await counters.incr('short-key', 50);
      await new Promise((res) => setTimeout(res, 80));
      expect((await counters.incr('short-key', 50)).current).toBe(1);
      expect(counters.read('unit-key').current).toBe(2);
    } finally {
      await counters.close();
    }
  });
});
