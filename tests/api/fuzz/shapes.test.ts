// @db once — the input layer: the JSON parser's shape limits, before any route code
/**
 * Deep and wide documents on every POST route (issue 25, server/http/json-shape.ts): a body whose
 * first field holds a 10,000-deep document, and one whose first field is a 1,000,000-element
 * array (≈ 2 MB, over the default 1 MB body limit). Each is refused before any route code runs:
 * HTTP 400, envelope 40001 naming the field (`<field>.a.a…` for the deep one, `<field>` for the
 * wide one) — the shape is judged as the body streams in, before its size (JSON_SCAN_CAP). Size
 * refusals stay where the shape is fine: 413 on `body`. Nothing is written, and the server keeps
 * answering, over real HTTP too. Sent in-process (inject) otherwise, so the file takes seconds.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../../server/routes/index.js';
import { routeUrl } from '../../../server/http/register.js';
import type { RouteDef } from '../../../server/http/route.js';
import { INGEST_SCOPES, newServiceToken } from '../../../server/auth/service-tokens.js';
import { sha256 } from '../../../server/auth/tokens.js';
import type { Config } from '../../../server/config.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { installWriteLog, type WriteLog } from './db-watch.js';
import { envelopeProblem } from './run.js';
import { JSON_SCAN_CAP } from '../../../server/http/json-shape.js';

const DEPTH = 10_000;
const WIDTH = 1_000_000;
const deep = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
const wide = `[${'0,'.repeat(WIDTH - 1)}0]`;

let s: TestServer;
let admin: ApiClient;
let log: WriteLog;
const token = newServiceToken();
const routes = (await allRoutes()).filter((r) => r.method === 'POST').sort((a, b) => routeUrl(a).localeCompare(routeUrl(b)));

beforeAll(async () => {
  s = await startServer({ config: { workers: 0, rateLimitPerMinute: 0 } as Partial<Config> });
  admin = await s.login();
  await s.db.query('INSERT INTO service_token (name, token_hash, token_hint, scopes) VALUES ($1, $2, $3, $4::text[])', ['shapes', sha256(token), token.slice(0, 8), [...INGEST_SCOPES]]);
  log = await installWriteLog(s.db);
});

afterAll(async () => {
  await s?.close();
});

/** the route's first body field (or a made-up one for routes without a body schema) */
const firstField = (r: RouteDef): string => Object.keys(((r.body as { properties?: object } | undefined)?.properties ?? {}) as object)[0] ?? `f${randomBytes(2).toString('hex')}`;

function send(r: RouteDef, payload: string) {
  const service = typeof r.access === 'object' && 'service' in r.access;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (service) headers.authorization = `Bearer ${token}`;
  else {
    headers.cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    headers['admin-token'] = admin.token ?? '';
  }
  return s.app.inject({ method: 'POST', url: routeUrl(r), headers, payload });
}

/** writes any request may make (a session's last-seen time, a token's last use, rate counters) */
const bookkeeping = (w: { tbl: string; op: string }) => (w.tbl === 'sessions' && w.op === 'UPDATE') || (w.tbl === 'service_token' && w.op === 'UPDATE') || w.tbl === 'rate_limit_hit';

describe(`a ${DEPTH}-deep and a ${WIDTH.toLocaleString('en')}-element body on each of the POST routes`, () => {
  it('covers the routes', () => {
    expect(routes.length).toBeGreaterThan(100);
  });

  it('every route: 400 + 40001 naming the field, nothing written', async () => {
    const wrong: string[] = [];
    const mark = await log.mark();
    const t0 = performance.now();
    for (const r of routes) {
      const field = firstField(r);
      for (const [shape, payload, expected] of [
        ['deep', `{"${field}":${deep}}`, `${field}.a.a.a.a.a.a.a`],
        ['wide', `{"${field}":${wide}}`, field],
      ] as const) {
        const res = await send(r, payload);
        const where = `${shape} POST ${r.path}`;
        const problem = envelopeProblem(r, { statusCode: res.statusCode, headers: res.headers, body: res.body });
        if (problem) {
          wrong.push(`${where}: ${problem}`);
          continue;
        }
        const body = JSON.parse(res.body) as { code: number; data: { errors?: Array<{ field: string; message: string }> } };
        if (res.statusCode !== 400 || body.code !== 40001 || body.data.errors?.[0]?.field !== expected) {
          wrong.push(`${where}: HTTP ${res.statusCode} ${res.body.slice(0, 200)} (expected 400 on ${expected})`);
        }
      }
    }
    const ms = performance.now() - t0;
    console.info(`shapes: ${routes.length * 2} bodies over ${routes.length} routes in ${Math.round(ms)} ms`);
    expect(wrong.slice(0, 20)).toEqual([]);
    const writes = (await log.since(mark)).filter((w) => !bookkeeping(w));
    expect(writes).toEqual([]);
  });

  it('the refusal is in the caller’s language', async () => {
    const r = routes.find((x) => x.path === 'role/create')!;
    const zh = await s.app.inject({ method: 'POST', url: routeUrl(r), headers: { 'content-type': 'application/json', 'x-lang': 'zh-CN', cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'admin-token': admin.token ?? '' }, payload: `{"name":${deep}}` });
    expect(JSON.parse(zh.body)).toMatchObject({ code: 40001, msg: 'name.a.a.a.a.a.a.a: 嵌套超过 64 层', data: { errors: [{ field: 'name.a.a.a.a.a.a.a', message: '嵌套超过 64 层' }] } });
    const en = await s.app.inject({ method: 'POST', url: routeUrl(r), headers: { 'content-type': 'application/json', 'x-lang': 'en-US', cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'admin-token': admin.token ?? '' }, payload: `{"name":${wide}}` });
    expect(en.statusCode).toBe(400);
    expect(JSON.parse(en.body)).toMatchObject({ code: 40001, msg: 'Role name: has more than 10000 items', data: { errors: [{ field: 'name', message: 'has more than 10000 items' }] } });
  });

  it('over real HTTP: 400 naming the field for both shapes, then the server still answers', async () => {
    for (const [payload, field] of [
      [`{"name":${wide}}`, 'name'],
      [`{"name":"ok","permissions":${deep}}`, 'permissions.a.a.a.a.a.a.a'],
    ] as const) {
      const r = await admin.request('POST', 'role/create', { body: payload, headers: { 'x-lang': 'en-US' } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 40001, data: { errors: [{ field }] } });
    }
    const r = await admin.get('User/Get');
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(10000);
  });

  it('a well-shaped body over the route’s limit is still 413 on body; past the scan cap 413 unread', async () => {
    const chunk = `"${'x'.repeat(60_000)}"`;
    const big = `{"name":"ok","tags":[${Array(Math.ceil(s.config.bodyLimit / 60_000) + 1).fill(chunk).join(',')}]}`;
    const r = await admin.request('POST', 'role/create', { body: big, headers: { 'x-lang': 'en-US' } });
    expect(r.status).toBe(413);
    expect(r.body.data.errors[0]).toEqual({ field: 'body', message: 'request body too large' });
    // declared beyond JSON_SCAN_CAP: refused on the header, before reading
    const cap = await s.app.inject({ method: 'POST', url: routeUrl(routes.find((x) => x.path === 'role/create')!), headers: { 'content-type': 'application/json', 'content-length': String(JSON_SCAN_CAP + 1), cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'admin-token': admin.token ?? '' }, payload: '{}' });
    expect(cap.statusCode).toBe(413);
    // a million-element array past the limit with its problem only after the limit: still named
    const late = big.replace(/}$/, `,"ids":${wide}}`);
    const l = await admin.request('POST', 'role/create', { body: late, headers: { 'x-lang': 'en-US' } });
    expect(l.status).toBe(400);
    expect(l.body.data.errors[0].field).toBe('ids');
  });
});
