// @db once
/**
 * The permission matrix (issue 12), generated from the server's own route table
 * (server/routes/index.ts `allRoutes()` and each RouteDef's `access`), so a new route is in it
 * the moment it exists: every route × {anonymous, an account with no role, an account holding
 * every key of one module (intelligent_voice, from the permission manifest), the super admin}.
 *
 * - anonymous → 20001, with a body that would pass validation and with a broken one (the login
 *   check runs before the body is read);
 * - a persona without any of the route's keys → 40003 (with a valid and with a broken body), and
 *   every table of the app unchanged (a checksum of every row of every table before and after all
 *   refusals, and a per-call write log of row triggers to name the call that wrote;
 *   the refusal's own audit row, action `forbidden`, is the one write allowed). Refused calls
 *   name ids of rows that exist (demo data), so a route that forgot its check would visibly write;
 * - a persona holding a key of the route (or any signed-in account for `login` routes) is never
 *   refused with 20001 or 40003 (its calls name ids no row has, so they change nothing real).
 * - routes of the ingestion API (`access: { service }`, a bearer service token) refuse every
 *   persona with 20001: a console session, even the super admin's, is not a service token
 *   (tests/api/ingest.test.ts calls them with tokens).
 * - the privilege ceiling's rows (issue 25): role/update takes away only keys the editor holds;
 *   service-token/create grants only scopes whose page key the minter holds and shops that exist;
 *   every ingestion route, with a token limited to a shop, writes that shop only.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../server/routes/index.js';
import { routeUrl } from '../../server/http/register.js';
import type { RouteDef } from '../../server/http/route.js';
import { flattenManifest } from '../../src/contract/permission-manifest.js';
import { diskPermissionTree } from '../../server/schemas/permission-tree.js';
import type { Config } from '../../server/config.js';
import { ApiClient, quickHash, startServer, type ApiResponse, type TestServer } from './harness.js';
import { FAR_ID, example } from './fuzz/arbitraries.js';
import { changedTables, installWriteLog, tableChecksums, type WriteLog } from './fuzz/db-watch.js';
import { multipart, postForm } from './business/helpers.js';
import { INGEST_SCOPES } from '../../server/auth/service-tokens.js';
import { SCOPE_KEYS, ServiceTokenKeys } from '../../server/routes/service-tokens.js';

const MODULE = 'intelligent_voice';
const MODULE_KEYS = [MODULE, ...flattenManifest(diskPermissionTree()).filter((e) => e.module === MODULE).map((e) => `${e.module}.${e.node.key}`)];
/** bookkeeping of requests, not data: session last-seen, request-rate counters, sign-in throttle; audit rows are checked apart */
const BOOKKEEPING = ['sessions', 'rate_limit_hit', 'login_throttle', 'login_failures', 'audit_logs'];
/**
 * Routes open to any signed-in account whose handler then asks for a key that depends on the
 * request (so a persona without it is refused there, rightly): only the super admin is checked
 * as a holder on these.
 */
const ACCESS_IN_HANDLER: Record<string, string> = {
  'job/of': "needs the jobs page key or the page key of the record's type (ref_type)",
};
/** an id that exists in the demo data's tables */
const REAL_ID = 1;

const routes = (await allRoutes()).sort((a, b) => {
  // routes that end a session go last (their holders sign in again after them anyway)
  const last = (r: RouteDef) => (/logout|revoke/.test(r.path) ? 1 : 0);
  return last(a) - last(b) || routeUrl(a).localeCompare(routeUrl(b));
});

type Persona = 'anonymous' | 'no role' | typeof MODULE | 'super admin';
interface Who {
  name: Persona;
  client: ApiClient;
  email?: string;
  accountId?: number;
  keys: Set<string>;
  superAdmin: boolean;
}

/** `service`: a route of the ingestion API, open only to a bearer service token (no persona is one) */
const keysOf = (r: RouteDef): string[] | 'public' | 'login' | 'service' =>
  r.access === 'public' || r.access === 'login'
    ? r.access
    : 'service' in r.access
      ? 'service'
      : Array.isArray(r.access.permission) ? r.access.permission : [r.access.permission];

const holds = (w: Who, r: RouteDef): boolean => {
  const k = keysOf(r);
  if (k === 'public') return true;
  // a console session, even the super admin's, is no service token
  if (w.name === 'anonymous' || k === 'service') return false;
  if (k === 'login' || w.superAdmin) return true;
  return k.some((x) => w.keys.has(x));
};

let s: TestServer;
const who = {} as Record<Persona, Who>;
const PASSWORD = `matrix-${randomBytes(6).toString('hex')}`;
let hash = '';
let log: WriteLog;

async function account(email: string, roleId: number | null): Promise<number> {
  const a = await s.db.query<{ id: number }>('INSERT INTO accounts (email, name, password_hash) VALUES ($1, $1, $2) RETURNING id', [email, hash]);
  if (roleId) await s.db.query('INSERT INTO account_roles (account_id, role_id) VALUES ($1, $2)', [a.rows[0].id, roleId]);
  return a.rows[0].id;
}

async function signIn(w: Who): Promise<void> {
  if (w.email) w.client = await s.login(w.email, PASSWORD);
}

beforeAll(async () => {
  // demo data: the ids refused calls name exist; no job workers, so nothing else writes
  // (the request rate limit is off: it has tests of its own, and ~1,700 calls come from one address)
  s = await startServer({ seedDemo: true, config: { workers: 0, rateLimitPerMinute: 0 } as Partial<Config> });
  hash = quickHash(PASSWORD);
  log = await installWriteLog(s.db);
  const tag = randomBytes(3).toString('hex');
  const superRole = await s.db.query<{ id: number }>(`INSERT INTO roles (name, is_super_admin) VALUES ($1, true) RETURNING id`, [`matrix super ${tag}`]);
  const modRole = await s.db.query<{ id: number }>(`INSERT INTO roles (name) VALUES ($1) RETURNING id`, [`matrix ${MODULE} ${tag}`]);
  await s.db.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT $1, id FROM permissions WHERE module = $2`,
    [modRole.rows[0].id, MODULE],
  );
  const personas: Array<[Persona, number | null, boolean]> = [
    ['no role', null, false],
    [MODULE, modRole.rows[0].id, false],
    ['super admin', superRole.rows[0].id, true],
  ];
  who.anonymous = { name: 'anonymous', client: s.anon(), keys: new Set(), superAdmin: false };
  for (const [name, roleId, superAdmin] of personas) {
    const email = `matrix-${name.replace(/\W/g, '-')}-${tag}@example.com`;
    const accountId = await account(email, roleId);
    who[name] = { name, client: s.anon(), email, accountId, keys: new Set(name === MODULE ? MODULE_KEYS : []), superAdmin };
    await signIn(who[name]);
  }
});
afterAll(async () => s?.close());

/** One call as `w`: a body (or query) that passes the route's schema, or a broken one. */
async function call(w: Who, r: RouteDef, idValue: number, broken = false): Promise<ApiResponse> {
  if (process.env.MATRIX_TRACE) fs.appendFileSync(process.env.MATRIX_TRACE, `${new Date().toISOString()} ${r.method} ${r.path} as ${w.name}${broken ? ' (broken)' : ''}\n`);
  if (r.raw === 'multipart' && !broken) {
    const fields: Record<string, string> = { shop_id: String(idValue), group_id: String(idValue), type: '1' };
    return postForm(w.client, urlPath(r), multipart({ name: 'matrix.csv', data: 'name,value\nmatrix,1\n', type: 'text/csv' }, fields));
  }
  if (r.method === 'GET') {
    const q = broken ? { page: 'not-a-number', '\u0000': 'x' } : (example(r.query, '', idValue) as Record<string, unknown>);
    return w.client.request('GET', urlPath(r), { query: Object.fromEntries(Object.entries(q ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])) });
  }
  if (broken) return w.client.request('POST', urlPath(r), { body: '{"broken": ', headers: { 'content-type': 'application/json' } });
  return w.client.post(urlPath(r), example(r.body, '', idValue) ?? {});
}

/** the client's path for a route: admin routes relative, others absolute */
const urlPath = (r: RouteDef): string => (r.base && r.base !== 'admin' ? routeUrl(r) : r.path);

const auditMax = async () => Number((await s.db.query<{ id: number | null }>('SELECT max(id) AS id FROM audit_logs')).rows[0].id ?? 0);

describe('permission matrix: every route × anonymous, no role, one module, super admin', () => {
  it('covers every route of the route table', () => {
    expect(routes.length).toBeGreaterThan(250);
    expect(new Set(routes.map((r) => `${r.method} ${routeUrl(r)}`)).size).toBe(routes.length);
  });

  it('refuses anonymous callers (20001) and personas without the key (40003), every table unchanged', async () => {
    const wrong: string[] = [];
    const before = await tableChecksums(s.db, BOOKKEEPING);
    const audit0 = await auditMax();
    let calls = 0;
    for (const r of routes) {
      const name = `${r.method} ${routeUrl(r)}`;
      const refused = (['anonymous', 'no role', MODULE, 'super admin'] as Persona[]).map((p) => who[p]).filter((w) => !holds(w, r));
      for (const w of refused) {
        for (const broken of [false, true]) {
          const mark = await log.mark();
          const res = await call(w, r, REAL_ID, broken);
          calls++;
          const want = w.name === 'anonymous' || keysOf(r) === 'service' ? 20001 : 40003;
          if (res.status !== 200 || res.body.code !== want) wrong.push(`${name} as ${w.name}${broken ? ' (broken body)' : ''}: HTTP ${res.status} ${res.body.code} ${res.body.msg}`);
          // the one write a refusal may leave: its own audit row
          const writes = (await log.since(mark)).filter((x) => !BOOKKEEPING.includes(x.tbl) || (x.tbl === 'audit_logs' && x.op !== 'INSERT'));
          if (writes.length) wrong.push(`${name} as ${w.name}: refused but wrote ${writes.map((x) => `${x.op} ${x.tbl}`).join(', ')}`);
        }
      }
    }
    expect(calls).toBeGreaterThan(routes.length * 2);
    expect(wrong).toEqual([]);
    expect(changedTables(before, await tableChecksums(s.db, BOOKKEEPING)), 'tables written by refused calls').toEqual([]);
    // the only rows refusals add: their own audit rows (action forbidden) naming the refused account
    const audits = await s.db.query<{ action: string; actor_id: number | null }>('SELECT action, actor_id FROM audit_logs WHERE id > $1', [audit0]);
    const refusedIds = new Set([who['no role'].accountId, who[MODULE].accountId]);
    expect(audits.rows.filter((a) => a.action !== 'forbidden' || !refusedIds.has(a.actor_id ?? -1))).toEqual([]);
    // (every route × three personas, one call at a time: a bound for a stuck server, not a speed
    // goal — it grows with the route table and took over 60 s at load 17)
  }, 300_000);

  it('never refuses a persona holding a key of the route (or any signed-in one on login routes)', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const name = `${r.method} ${routeUrl(r)}`;
      const holders = (['no role', MODULE, 'super admin'] as Persona[])
        .map((p) => who[p])
        .filter((w) => holds(w, r) && (!ACCESS_IN_HANDLER[r.path] || w.superAdmin));
      if (keysOf(r) === 'public') holders.unshift(who.anonymous);
      for (const w of holders) {
        const res = await call(w, r, FAR_ID);
        if (res.status >= 500 || res.body.code === 20001 || res.body.code === 40003) wrong.push(`${name} as ${w.name}: HTTP ${res.status} ${res.body.code} ${res.body.msg}`);
        if (w.email && !w.client.token) await signIn(w); // the route ended the session (sign-out)
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});

/**
 * The privilege ceiling's rows of the matrix (issue 25, server/auth/ceiling.ts): on these routes
 * the answer depends on what the request hands out or takes away, not only on the route's key.
 * Each row: who acts, what it asks, the code it gets; every refusal is 40003 (audited
 * `forbidden`) or 40001 naming the field, and changes nothing. The ingestion rows come from the
 * route table (every `access: { service }` route), like the rest of the matrix.
 */
describe('permission matrix: the ceiling — keys taken away, keys and shops granted, shops written', () => {
  const ROLE_KEYS = ['admin_center', 'admin_center.admin.permission.role', 'admin_center.admin.permission.role.update'];
  const permIds = async (where: string, params: unknown[] = []): Promise<number[]> =>
    (await s.db.query<{ id: number }>(`SELECT id FROM permissions p WHERE ${where} ORDER BY id`, params)).rows.map((r) => r.id);
  const rolePerms = async (roleId: number): Promise<number[]> =>
    (await s.db.query<{ id: number }>('SELECT permission_id AS id FROM role_permissions WHERE role_id = $1 ORDER BY 1', [roleId])).rows.map((r) => r.id);
  const forbidden = async () => (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'forbidden'`)).rows[0].n;
  const tokenCount = async () => (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM service_token')).rows[0].n;

  it('role/update: an editor holding one module takes away only keys it holds; the super admin any', async () => {
    const editor = await s.loginWithKeys([...ROLE_KEYS, ...MODULE_KEYS]);
    const held = await permIds(`p.module = $1`, [MODULE]);
    const other = await permIds(`p.module <> $1 AND p.module <> 'admin_center'`, [MODULE]);
    const bigger = async () => (await s.db.query<{ id: number }>('INSERT INTO roles (name) SELECT $1 RETURNING id', [`matrix bigger ${randomBytes(3).toString('hex')}`])).rows[0].id;
    const rows: Array<{ row: string; actor: ApiClient; keep: (all: number[]) => number[]; want: number }> = [
      { row: 'strips the keys of other modules (keeps its own)', actor: editor, keep: () => held, want: 40003 },
      { row: 'empties the role', actor: editor, keep: () => [], want: 40003 },
      { row: 'takes away one key of another module', actor: editor, keep: (all) => all.filter((id) => id !== other[0]), want: 40003 },
      { row: 'takes away one key it holds', actor: editor, keep: (all) => all.filter((id) => id !== held[held.length - 1]), want: 10000 },
      { row: 'super admin empties the role', actor: who['super admin'].client, keep: () => [], want: 10000 },
    ];
    const wrong: string[] = [];
    for (const { row, actor, keep, want } of rows) {
      const role = await bigger();
      await s.db.query('INSERT INTO role_permissions (role_id, permission_id) SELECT $1, unnest($2::int[])', [role, [...held, ...other]]);
      const before = await rolePerms(role);
      const audits = await forbidden();
      const r = await actor.post('role/update', { id: role, permission_ids: keep(before) });
      const after = await rolePerms(role);
      if (r.body.code !== want) wrong.push(`${row}: ${r.body.code} ${r.body.msg} (expected ${want})`);
      if (want === 40003 && (after.join() !== before.join() || (await forbidden()) !== audits + 1)) wrong.push(`${row}: refused but the role changed or no audit row`);
      if (want === 40003 && !/^you cannot remove permissions you do not hold yourself: /.test(r.body.msg)) wrong.push(`${row}: ${r.body.msg}`);
      if (want === 10000 && after.join() !== keep(before).join()) wrong.push(`${row}: accepted but the role holds ${after.length} keys`);
    }
    expect(wrong).toEqual([]);
  });

  it('service-token/create: every scope needs its page key, every shop must exist; the super admin mints any', async () => {
    const realShop = (await s.db.query<{ id: number }>('SELECT min(id) AS id FROM shop')).rows[0].id;
    const wrong: string[] = [];
    for (const scope of INGEST_SCOPES) {
      const minter = await s.loginWithKeys([ServiceTokenKeys.page, ServiceTokenKeys.create, SCOPE_KEYS[scope]]);
      const other = INGEST_SCOPES.find((x) => x !== scope && SCOPE_KEYS[x] !== SCOPE_KEYS[scope])!;
      const rows: Array<[string, Record<string, unknown>, number, string?]> = [
        [`a scope beyond its keys (${other})`, { scopes: [scope, other] }, 40003, SCOPE_KEYS[other]],
        ['a shop that does not exist', { scopes: [scope], shop_ids: [realShop, FAR_ID] }, 40001, 'shop_ids'],
        ['its own scope, limited to a shop', { scopes: [scope], shop_ids: [realShop] }, 10000],
      ];
      for (const [row, body, want, named] of rows) {
        const n = await tokenCount();
        const r = await minter.post('service-token/create', { name: `matrix ${scope}`, ...body });
        const where = `${scope}: ${row}`;
        if (r.body.code !== want) wrong.push(`${where}: ${r.body.code} ${r.body.msg} (expected ${want})`);
        if (want === 40003 && !String(r.body.msg).includes(named!)) wrong.push(`${where}: the refusal does not name ${named}`);
        if (want === 40001 && r.body.data?.errors?.[0]?.field !== named) wrong.push(`${where}: the refusal names ${JSON.stringify(r.body.data)}`);
        if ((await tokenCount()) !== n + (want === 10000 ? 1 : 0)) wrong.push(`${where}: ${want === 10000 ? 'no token stored' : 'refused but a token was stored'}`);
        if (want === 10000 && (r.body.data.scopes.join() !== scope || r.body.data.shop_ids.join() !== String(realShop))) wrong.push(`${where}: minted ${JSON.stringify(r.body.data)}`);
      }
    }
    const all = await who['super admin'].client.post('service-token/create', { name: 'matrix all', scopes: [...INGEST_SCOPES] });
    if (all.body.code !== 10000) wrong.push(`super admin, every scope: ${all.body.code} ${all.body.msg}`);
    expect(wrong).toEqual([]);
  });

  it('every ingestion route: a token limited to a shop writes that shop only, an unlimited one every shop', async () => {
    const admin = who['super admin'].client;
    const shopA = (await admin.ok('POST', 'shop/create', { name: 'Matrix shop A', type: 1 })).id as number;
    const shopB = (await admin.ok('POST', 'shop/create', { name: 'Matrix shop B', type: 1 })).id as number;
    const service = routes.filter((r) => keysOf(r) === 'service');
    expect(service.length).toBe(INGEST_SCOPES.length);
    const wrong: string[] = [];
    for (const r of service) {
      const scope = (r.access as { service: string }).service;
      const schema = (r.body as { properties: { records: { items: Record<string, unknown> } } }).properties.records.items['x-record-schema'] as Parameters<typeof example>[0];
      const record = (shop: number) => ({ ...(example(schema, '', shop) as object), shop_id: shop, external_id: `matrix-${randomBytes(4).toString('hex')}` });
      const limited = await admin.ok('POST', 'service-token/create', { name: `matrix ${scope} of A`, scopes: [scope], shop_ids: [shopA] });
      const every = await admin.ok('POST', 'service-token/create', { name: `matrix ${scope} of all`, scopes: [scope] });
      for (const [row, token, want] of [
        ['limited to A', limited.token as string, ['created', 'rejected']],
        ['every shop', every.token as string, ['created', 'created']],
      ] as const) {
        const res = await s.anon().request('POST', routeUrl(r), { body: { records: [record(shopA), record(shopB)] }, headers: { authorization: `Bearer ${token}`, 'x-lang': 'en-US' } });
        const results = (res.body.data?.results ?? []) as Array<{ status: string; errors?: Array<{ field: string; message: string }> }>;
        const got = results.map((x) => x.status);
        if (got.join() !== want.join()) wrong.push(`${routeUrl(r)} ${row}: ${res.body.code} ${JSON.stringify(results).slice(0, 300)}`);
        else if (want[1] === 'rejected' && JSON.stringify(results[1].errors) !== JSON.stringify([{ field: 'shop_id', message: 'this service token may not write to this shop' }])) {
          wrong.push(`${routeUrl(r)} ${row}: rejected on ${JSON.stringify(results[1].errors)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
