/**
 * The fuzz suite's runner (issue 12): every mutation route gets at least 200 generated-then-broken
 * bodies and every list route (a GET with a query schema) 100 broken queries, generated with
 * fast-check from the route's own schema (./arbitraries.ts), sent as the super admin. For each
 * reply: an envelope, never HTTP 5xx; a 40001 names a field; a refused call committed no write
 * (./db-watch.ts write log). After the routes of a file: the server still answers over HTTP.
 *
 * The routes come from the server's route table (server/routes/index.ts), so a new route is
 * fuzzed without anyone listing it. They are split into shards (one test file each) so vitest
 * runs them in parallel; each file has one server.
 *
 * Env: FUZZ_RUNS_BODY / FUZZ_RUNS_QUERY (default 200 / 100; `npm test` sets 100 / 50, `npm run test:full` 1,000 / 500), FUZZ_SEED (repeat a run),
 * FUZZ_REPORT (a file the summary line is appended to, for docs/security.md).
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../../server/routes/index.js';
import { routeUrl } from '../../../server/http/register.js';
import type { RouteDef } from '../../../server/http/route.js';
import { INGEST_SCOPES, newServiceToken } from '../../../server/auth/service-tokens.js';
import { sha256 } from '../../../server/auth/tokens.js';
import type { Config } from '../../../server/config.js';
import { quickHash, startServer, type ApiClient, type TestServer } from '../harness.js';
import { brokenBody, brokenQuery, example, type RawBody, type RawQuery } from './arbitraries.js';
import { installWriteLog, type WriteLog } from './db-watch.js';

export const BODY_RUNS = Number(process.env.FUZZ_RUNS_BODY ?? 200);
export const QUERY_RUNS = Number(process.env.FUZZ_RUNS_QUERY ?? 100);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const ROUTE_TIMEOUT_MS = 300_000;

/** Routes whose refusals leave a trace on purpose: a failed sign-in records the failure. */
const REFUSAL_TRACES: Record<string, RegExp> = {
  'user/login': /login|throttle|audit/,
};
/**
 * Writes any request may make, refused or not: the session's last-seen time (idle timeout), a
 * service token's last use (ingestion routes), the request-rate counters; and the audit row of a
 * refusal (40003 is audited on purpose).
 */
const bookkeeping = (w: { tbl: string; op: string }, code: number): boolean =>
  (w.tbl === 'sessions' && w.op === 'UPDATE') || (w.tbl === 'service_token' && w.op === 'UPDATE') || w.tbl === 'rate_limit_hit' || (code === 40003 && w.tbl === 'audit_logs' && w.op === 'INSERT');

/** Fuzzed without a session: with one, they would end the session the rest of the run uses. */
const WITHOUT_SESSION = new Set(['user/logout']);

export const bodyRoutes = (routes: RouteDef[]) => routes.filter((r) => r.method === 'POST');
export const queryRoutes = (routes: RouteDef[]) => routes.filter((r) => r.method === 'GET' && r.query);

/** shard `i` of `n`: every n-th route in path order, so each file gets a mix of areas */
export const shard = <T extends RouteDef>(routes: T[], i: number, n: number): T[] =>
  [...routes].sort((a, b) => routeUrl(a).localeCompare(routeUrl(b))).filter((_, k) => k % n === i);

interface Stats {
  calls: number;
  status5xx: number;
  partialWrites: number;
  accepted: number;
  codes: Record<string, number>;
  sessionRestores: number;
  /** ms spent in the server's handling of the calls (inject) and in the write-log checks */
  sendMs: number;
  checkMs: number;
}

/** Where a reply broke a rule, or null. */
export function envelopeProblem(route: RouteDef, res: { statusCode: number; headers: Record<string, unknown>; body: string }): string | null {
  if (res.statusCode >= 500) return `HTTP ${res.statusCode}: ${res.body.slice(0, 300)}`;
  const type = String(res.headers['content-type'] ?? '');
  if (!type.includes('application/json')) {
    // a streamed download or event stream answering the call is not a refusal
    if (route.raw === 'stream' && res.statusCode === 200) return null;
    return `not JSON (HTTP ${res.statusCode}, ${type}): ${res.body.slice(0, 200)}`;
  }
  let body: { code?: unknown; msg?: unknown; data?: any };
  try {
    body = JSON.parse(res.body);
  } catch {
    return `not JSON: ${res.body.slice(0, 200)}`;
  }
  if (typeof body.code !== 'number' || typeof body.msg !== 'string' || !('data' in body)) return `not an envelope: ${res.body.slice(0, 200)}`;
  if (body.code >= 50000) return `code ${body.code}: ${body.msg}`;
  if (body.code === 40001) {
    const field = body.data?.errors?.[0]?.field;
    if (typeof field !== 'string' || field === '') return `40001 without a field: ${res.body.slice(0, 300)}`;
  }
  return null;
}

export const codeOf = (res: { body: string }): number => {
  try {
    return Number(JSON.parse(res.body).code);
  } catch {
    return 10000; // a stream that answered
  }
};

/**
 * Declares the tests of one fuzz file: `kind` body (POST routes) or query (GET routes with a
 * query schema), shard `index` of `of`.
 */
export async function fuzzFile(kind: 'body' | 'query', index: number, of: number): Promise<void> {
  const all = await allRoutes();
  const routes = shard(kind === 'body' ? bodyRoutes(all) : queryRoutes(all), index, of);
  let s: TestServer;
  let admin: ApiClient;
  let log: WriteLog;
  let headers: Record<string, string> = {};
  /** the ingestion routes (access `{ service }`) are called with a bearer service token holding every scope, not the session */
  const serviceToken = newServiceToken();
  const isService = (r: RouteDef) => typeof r.access === 'object' && 'service' in r.access;
  const stats: Stats = { calls: 0, status5xx: 0, partialWrites: 0, accepted: 0, codes: {}, sessionRestores: 0, sendMs: 0, checkMs: 0 };
  const failures: string[] = [];
  let password = '';
  let passwordHash = '';
  /** the newest committed write before the next call (no other writer: no workers, calls one at a time) */
  let lastMark = 0;

  const sessionHeaders = (c: ApiClient) => ({
    cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'admin-token': c.token ?? '',
  });

  /** a fresh super admin, written straight to the database, when a fuzzed write took the last one's powers */
  async function restoreAdmin(): Promise<void> {
    const email = `fuzz-${randomBytes(4).toString('hex')}@example.com`;
    const role = await s.db.query<{ id: number }>(`INSERT INTO roles (name, is_super_admin) VALUES ($1, true) RETURNING id`, [`fuzz super ${email}`]);
    const acc = await s.db.query<{ id: number }>(`INSERT INTO accounts (email, name, password_hash) VALUES ($1, $1, $2) RETURNING id`, [email, passwordHash]);
    await s.db.query(`INSERT INTO account_roles (account_id, role_id) VALUES ($1, $2)`, [acc.rows[0].id, role.rows[0].id]);
    admin = await s.login(email, password);
    headers = sessionHeaders(admin);
  }

  beforeAll(async () => {
    // no job workers or tickers: the only writes are the fuzzed calls' own
    // and no request rate limit (it has tests of its own; the fuzz sends thousands of calls a minute)
    s = await startServer({ config: { workers: 0, rateLimitPerMinute: 0 } as Partial<Config> });
    log = await installWriteLog(s.db);
    password = `fuzz-${randomBytes(8).toString('hex')}`;
    passwordHash = quickHash(password);
    await restoreAdmin();
    await s.db.query('INSERT INTO service_token (name, token_hash, token_hint, scopes) VALUES ($1, $2, $3, $4::text[])', ['fuzz', sha256(serviceToken), serviceToken.slice(0, 8), [...INGEST_SCOPES]]);
    lastMark = await log.mark();
  });

  afterAll(async () => {
    const line = `fuzz ${kind} shard ${index + 1}/${of} (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): ${stats.calls} ${kind === 'body' ? 'bodies' : 'queries'} over ${routes.length} routes, ${stats.status5xx} HTTP 5xx, ${stats.partialWrites} partial writes, ${stats.accepted} accepted, ${stats.sessionRestores} admin restores, codes ${JSON.stringify(stats.codes)}; ${Math.round(stats.sendMs / 1000)} s in the server, ${Math.round(stats.checkMs / 1000)} s checking writes`;
    console.log(line);
    if (process.env.FUZZ_REPORT) fs.appendFileSync(process.env.FUZZ_REPORT, line + '\n');
    await s?.close();
  });

  async function send(route: RouteDef, c: RawBody | RawQuery) {
    const noSession = WITHOUT_SESSION.has(route.path);
    const h: Record<string, string> = noSession ? {} : isService(route) ? { authorization: `Bearer ${serviceToken}` } : { ...headers };
    let url = routeUrl(route);
    let payload: string | undefined;
    if ('payload' in c) {
      payload = c.payload;
      if (c.contentType) h['content-type'] = c.contentType;
    } else if (c.query) {
      url += `?${c.query}`;
    }
    return s.app.inject({
      method: route.method,
      url,
      headers: h,
      payload,
      // a different address per call, as many clients would be (per-address limits do not hide what the route does)
      remoteAddress: `10.${(stats.calls >> 16) & 255}.${(stats.calls >> 8) & 255}.${stats.calls & 255}`,
    });
  }

  describe(`fuzz ${kind} shard ${index + 1}/${of}`, () => {
    it('covers its routes', () => {
      expect(routes.length).toBeGreaterThan(0);
    });

    // one test per route, declared from the route table at collection time
    it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, route) => {
      const arb = kind === 'body' ? brokenBody(route.body) : brokenQuery(route.query);
      const traces = REFUSAL_TRACES[route.path];
      await fc.assert(
        fc.asyncProperty(arb, async (c) => {
          const mark = lastMark;
          const t0 = performance.now();
          const res = await send(route, c);
          const t1 = performance.now();
          stats.sendMs += t1 - t0;
          stats.calls++;
          const code = codeOf(res);
          stats.codes[code] = (stats.codes[code] ?? 0) + 1;
          if (res.statusCode >= 500) stats.status5xx++;
          const where = `${route.method} ${route.path} [${c.steps.join(', ')}]`;
          const problem = envelopeProblem(route, { statusCode: res.statusCode, headers: res.headers, body: res.body });
          if (problem) failures.push(`${where}: ${problem}`);
          // one query per call: the newest committed write, compared with the one before the call
          lastMark = await log.mark();
          stats.checkMs += performance.now() - t1;
          if (code === 10000) stats.accepted++;
          else if (lastMark !== mark) {
            const writes = (await log.since(mark)).filter((w) => !traces?.test(w.tbl) && !bookkeeping(w, code));
            if (writes.length) {
              stats.partialWrites++;
              failures.push(`${where}: refused with ${code} but wrote ${writes.map((w) => `${w.op} ${w.tbl}`).join(', ')}`);
            }
          }
          if ((code === 20001 || code === 40003) && !WITHOUT_SESSION.has(route.path)) {
            // a fuzzed write took the admin's session or powers (e.g. disabled its account): go on as a new one
            stats.sessionRestores++;
            await restoreAdmin();
            lastMark = await log.mark();
          }
          expect(problem, where).toBeNull();
        }),
        { numRuns: kind === 'body' ? BODY_RUNS : QUERY_RUNS, seed: SEED, endOnFailure: true },
      );
      // routes that hash passwords (scrypt) take tens of seconds for their 200 bodies on a loaded box
    }, ROUTE_TIMEOUT_MS);

    if (kind === 'query') {
      // every value of every enum a list takes (sort columns, orders, statuses), one at a time and
      // each sort both ways: cheap, and certain to reach what random queries reach only by luck
      it('every enum value of every list query (each sort column both ways)', async () => {
        const wrong: string[] = [];
        let calls = 0;
        for (const route of routes) {
          const props = ((route.query as { properties?: Record<string, { enum?: unknown[] }> })?.properties ?? {}) as Record<string, { enum?: unknown[] }>;
          for (const [name, prop] of Object.entries(props)) {
            for (const value of prop.enum ?? []) {
              for (const order of name === 'sort_by' ? ['asc', 'desc'] : [null]) {
                // the route's required parameters (ids no row has), then the value swept
                const base = Object.entries((example(route.query) ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]);
                const q = new URLSearchParams([...base.filter(([k]) => k !== name && k !== 'sort_order'), [name, String(value)], ...(order ? [['sort_order', order]] : [])]).toString();
                const res = await send(route, { query: q, steps: [q] });
                calls++;
                const problem = envelopeProblem(route, { statusCode: res.statusCode, headers: res.headers, body: res.body });
                // a value the schema lists is never refused as invalid (other business answers are fine)
                const refusedValue = codeOf(res) === 40001 && /"field":"(sort_by|sort_order|[^"]*)"/.exec(res.body)?.[1] === name;
                if (problem || refusedValue) wrong.push(`${route.method} ${route.path}?${q}: ${problem ?? res.body.slice(0, 200)}`);
              }
            }
          }
        }
        stats.calls += calls;
        expect(wrong).toEqual([]);
      });
    }

    it('the server still answers over HTTP, and no call broke a rule', async () => {
      const r = await admin.get('User/Get');
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(10000);
      expect(failures.slice(0, 20)).toEqual([]);
      expect(stats.status5xx).toBe(0);
      expect(stats.partialWrites).toBe(0);
    });
  });
}
