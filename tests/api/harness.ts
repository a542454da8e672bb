/**
 * API test harness: a real server on a fresh database, called over real HTTP (fetch).
 *
 *   const s = await startServer();                 // fresh PGlite in a temp dir (or PostgreSQL, below)
 *   const admin = await s.login();                  // super admin (ADMIN credentials of the harness)
 *   const r = await admin.get('role/list', { page: 1 });   // → { status, body: { code, msg, data }, headers }
 *   await admin.post('role/create', { name: 'x' });
 *   const op = await s.loginWithKeys(['intelligent_text.text.shop.list']);  // new role + account holding only these keys
 *   await s.close();
 *
 * One server per test file (PGlite initdb takes about a second): start it in `beforeAll`, close
 * it in `afterAll`. With env TEST_DATABASE_URL set, each server gets a fresh PostgreSQL schema
 * (dropped on close) instead of PGlite. Paths are relative to /api/admin/ unless they start with '/'.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Envelope } from '../../src/contract/codes.js';
import { buildApp } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { openDb } from '../../server/db/open.js';
import { openPg } from '../../server/db/pg.js';
import { MIGRATIONS_DIR, migrate, migrationFiles } from '../../server/db/migrate.js';
import { LOCK_FILE } from '../../server/db/lock.js';
import { demoSeedFingerprint, seedAll } from '../../server/db/seed.js';
import type { SqlDb } from '../../server/db/sql-db.js';
import { trackWrites } from '../../server/db/tracked.js';
import type { RouteDef } from '../../server/http/route.js';
import type { Clock } from '../../server/jobs/clock.js';
import { diskPermissionTree, treeFingerprint } from '../../server/schemas/permission-tree.js';
import { quickHash } from '../quick-hash.js';

/**
 * The harness's own accounts (the super admin and `loginWithKeys` accounts, written straight to
 * the database) carry a scrypt hash at N = 2^10 instead of the production 2^17: sign-in verifies
 * with the parameters stored in the hash (server/auth/password.ts), so the path is the real one,
 * and a suite that signs in hundreds of times no longer spends minutes of CPU in scrypt.
 * Accounts made through the API (account/create, password resets) and unknown emails (the
 * dummy check) still hash at the production cost, so the sign-in storm tests measure that (the
 * fuzz shards excepted: tests/api/fuzz/cheap-passwords.ts).
 */
export { quickHash };
const hashes = new Map<string, string>();
const cachedHash = (password: string): string => {
  let h = hashes.get(password);
  if (!h) hashes.set(password, (h = quickHash(password)));
  return h;
};

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'admin-test-password';

export interface ApiResponse<T = any> {
  status: number;
  body: Envelope<T>;
  headers: Headers;
}

export interface StartOptions {
  /** run the demo seeds (core demo role/account + server/db/demo if present); default false */
  seedDemo?: boolean;
  /** override any setting */
  config?: Partial<Config>;
  /** replace the route list (default: every route of server/routes/index.ts) */
  routes?: RouteDef[];
  /** the work engine's clock (a ControlledClock moves schedules and call windows without waiting) */
  clock?: Clock;
}

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  app: FastifyInstance;
  db: SqlDb;
  config: Config;
  /** a client with no session */
  anon(): ApiClient;
  /** sign in (default: the harness super admin); throws unless code 10000 */
  login(email?: string, password?: string): Promise<ApiClient>;
  /** create a role holding exactly these flattened keys and an account in it, and sign in as it */
  loginWithKeys(keys: string[], opts?: { email?: string; password?: string }): Promise<ApiClient & { accountId: number; roleId: number }>;
  close(): Promise<void>;
}

/** Keeps the cookies a browser would (sid, sid_guard) and sends sid as the admin-token header. */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  /** send the admin-token header (the client does; turn off to test cookie-only requests) */
  sendToken = true;
  constructor(readonly baseUrl: string) {}

  get token(): string | undefined {
    return this.cookies.get('sid');
  }

  url(p: string): string {
    return p.startsWith('/') ? `${this.baseUrl}${p}` : `${this.baseUrl}/api/admin/${p}`;
  }

  async request<T = any>(method: string, p: string, opts: { query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
    const u = new URL(this.url(p));
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.sendToken && this.token) headers['admin-token'] ??= this.token;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(u, { method, headers, body });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: Envelope<T>;
    try {
      parsed = JSON.parse(text) as Envelope<T>;
    } catch {
      parsed = { code: -1, msg: text, data: null as T };
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get<T = any>(p: string, query?: Record<string, unknown>) {
    return this.request<T>('GET', p, { query });
  }

  post<T = any>(p: string, body: unknown = {}) {
    return this.request<T>('POST', p, { body });
  }

  /** like get/post but returns `data` and throws unless code 10000 */
  async ok<T = any>(method: 'GET' | 'POST', p: string, payload?: Record<string, unknown>): Promise<T> {
    const r = method === 'GET' ? await this.get<T>(p, payload) : await this.post<T>(p, payload ?? {});
    if (r.body.code !== 10000) throw new Error(`${method} ${p} → ${r.status} ${r.body.code} ${r.body.msg}`);
    return r.body.data;
  }
}

/**
 * What a demo-seeded template adds to its key: the demo seed's sources and the day (the demo
 * data holds dates relative to today, so a template is not reused across midnight).
 */
const demoKey = (): string => `${demoSeedFingerprint()}:${new Date().toISOString().slice(0, 10)}`;

/**
 * The core template with the demo seed run on it once (seedAll's `demoOnce` mark), for the files
 * that start with `seedDemo`: the demo seed took 5–20 s per file on a loaded machine, twice per
 * file that runs on both databases. A file's own seedAll then finds the mark and skips it, so
 * the database it starts on is the one a fresh seed makes.
 */
async function pgliteDemoTemplate(): Promise<string> {
  const core = await pgliteTemplate();
  const dir = `${core}-demo-${createHash('sha256').update(demoKey()).digest('hex').slice(0, 12)}`;
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  const build = `${dir}.build-${process.pid}-${randomBytes(3).toString('hex')}`;
  fs.cpSync(core, build, { recursive: true, filter: (src) => path.basename(src) !== LOCK_FILE });
  const db = await openDb({ databaseUrl: '', dataDir: build });
  try {
    await seedAll(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, seedDemo: true }, { demoOnce: true });
  } finally {
    await db.close();
  }
  try {
    fs.renameSync(build, dir);
  } catch {
    fs.rmSync(build, { recursive: true, force: true }); // another process won the race
  }
  return dir;
}

/**
 * A migrated and core-seeded PGlite data dir, built once and cached in the OS temp dir (keyed by
 * the migrations and seed sources); each server copies it, which is much faster than initdb.
 */
async function pgliteTemplate(): Promise<string> {
  const root = path.resolve(import.meta.dirname, '../..');
  const h = createHash('sha256');
  for (const f of migrationFiles()) h.update(f).update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)));
  for (const f of ['server/db/seed-core.ts', 'src/contract/permission-manifest.ts', 'node_modules/@electric-sql/pglite/package.json']) {
    h.update(fs.readFileSync(path.join(root, f)));
  }
  h.update(treeFingerprint(diskPermissionTree())); // the seed holds the schemas' menu pages too
  h.update(ADMIN_EMAIL + ADMIN_PASSWORD);
  const dir = path.join(os.tmpdir(), `bo-api-template-${h.digest('hex').slice(0, 16)}`);
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  const build = `${dir}.build-${process.pid}-${randomBytes(3).toString('hex')}`;
  const db = await openDb({ databaseUrl: '', dataDir: build });
  try {
    await migrate(db);
    await seedAll(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, seedDemo: false });
  } finally {
    await db.close();
  }
  try {
    fs.renameSync(build, dir);
  } catch {
    fs.rmSync(build, { recursive: true, force: true }); // another process won the race
  }
  // drop templates of older migrations/seeds (untouched for 10 minutes)
  for (const f of fs.readdirSync(os.tmpdir())) {
    const old = path.join(os.tmpdir(), f);
    if (!f.startsWith('bo-api-template-') || old === dir || old.startsWith(`${dir}-demo-`)) continue;
    try {
      if (Date.now() - fs.statSync(old).mtimeMs > 600_000) fs.rmSync(old, { recursive: true, force: true });
    } catch {
      /* another process removed it */
    }
  }
  return dir;
}

/** The schema of the app's tables and of the work engine's in each test database on PostgreSQL. */
const PG_SCHEMA = 'app';
const PG_JOBS_SCHEMA = 'app_boss';

const dbUrl = (pgUrl: string, database: string): string => {
  const u = new URL(pgUrl);
  u.pathname = `/${database}`;
  return u.toString();
};

async function createFromTemplate(admin: SqlDb, name: string, template: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      return;
    } catch (e) {
      // another file copying the template at the same moment ("being accessed by other users")
      if (attempt >= 20 || !/being accessed by other users/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
}

let pgDemoTemplateName: Promise<string> | null = null;
/** The PostgreSQL core template with the demo seed run on it once (like pgliteDemoTemplate). */
function pgDemoTemplate(pgUrl: string): Promise<string> {
  pgDemoTemplateName ??= (async () => {
    const core = await pgTemplate(pgUrl);
    const name = `${core}_demo_${createHash('sha256').update(demoKey()).digest('hex').slice(0, 12)}`;
    const admin = await openPg(pgUrl, { max: 1 });
    try {
      if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rows.length) return name;
      const build = `bo_dbuild_${process.pid}_${randomBytes(3).toString('hex')}`;
      await createFromTemplate(admin, build, core);
      try {
        const db = await openPg(dbUrl(pgUrl, build), { schema: PG_SCHEMA });
        try {
          await seedAll(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, seedDemo: true }, { demoOnce: true });
        } finally {
          await db.close();
        }
        await admin.query(`ALTER DATABASE ${build} RENAME TO ${name}`);
      } catch (e) {
        await admin.query(`DROP DATABASE IF EXISTS ${build} WITH (FORCE)`);
        const won = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (!won.rows.length) throw e; // not a lost race: a real failure
      }
      // demo templates of other days or demo sources
      const old = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2`, [`${core}\\_demo\\_%`, name]);
      for (const r of old.rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname}`).catch(() => undefined);
      return name;
    } finally {
      await admin.close();
    }
  })();
  pgDemoTemplateName.catch(() => (pgDemoTemplateName = null));
  return pgDemoTemplateName;
}

let pgTemplateName: Promise<string> | null = null;
/**
 * A PostgreSQL database migrated, core-seeded and with the work engine's schema made, built once
 * per code version (named by a hash of the migrations, seed and pg-boss version) and kept between
 * runs; every test file's server gets a copy of it (CREATE DATABASE … TEMPLATE).
 */
function pgTemplate(pgUrl: string): Promise<string> {
  pgTemplateName ??= (async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const h = createHash('sha256');
    for (const f of migrationFiles()) h.update(f).update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)));
    for (const f of ['server/db/seed-core.ts', 'src/contract/permission-manifest.ts', 'node_modules/pg-boss/package.json', 'server/jobs/boss.ts', 'tests/api/harness.ts']) {
      h.update(fs.readFileSync(path.join(root, f)));
    }
    h.update(treeFingerprint(diskPermissionTree()));
    const name = `bo_tpl_${h.digest('hex').slice(0, 16)}`;
    const admin = await openPg(pgUrl, { max: 1 });
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rows.length) return name;
      const build = `${name}_b${process.pid}_${randomBytes(3).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${build}`);
      try {
        const db = await openPg(dbUrl(pgUrl, build), { max: 1 });
        try {
          await db.query(`CREATE SCHEMA ${PG_SCHEMA}`);
        } finally {
          await db.close();
        }
        const tdb = await openPg(dbUrl(pgUrl, build), { schema: PG_SCHEMA });
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-api-pgtpl-'));
        try {
          await migrate(tdb);
          await seedAll(tdb, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, seedDemo: false });
          await tdb.query('UPDATE accounts SET password_hash = $2 WHERE email = $1', [ADMIN_EMAIL, cachedHash(ADMIN_PASSWORD)]);
          // the work engine makes its tables when it starts: once here, with no workers
          const config: Config = {
            ...loadConfig({}, tmp),
            dataDir: path.join(tmp, 'data'),
            staticDir: path.join(tmp, 'no-dist'),
            logLevel: 'silent',
            workers: 0,
            jobsSchema: PG_JOBS_SCHEMA,
          };
          const app = await buildApp({ config, db: tdb });
          await app.ready();
          await app.close();
        } finally {
          await tdb.close();
          fs.rmSync(tmp, { recursive: true, force: true });
        }
        await admin.query(`ALTER DATABASE ${build} RENAME TO ${name}`);
      } catch (e) {
        await admin.query(`DROP DATABASE IF EXISTS ${build} WITH (FORCE)`);
        const won = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (!won.rows.length) throw e; // not a lost race: a real failure
      }
      // templates of other code versions
      const old = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'bo\\_tpl\\_%' AND datname <> $1 AND datname NOT LIKE '%\\_b%'`, [name]);
      for (const r of old.rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname}`).catch(() => undefined);
      return name;
    } finally {
      await admin.close();
    }
  })();
  pgTemplateName.catch(() => (pgTemplateName = null));
  return pgTemplateName;
}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-api-'));
  const pgUrl = process.env.TEST_DATABASE_URL;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const config: Config = {
    ...loadConfig({}, tmp),
    port: 0,
    dataDir: path.join(tmp, 'data'),
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    seedDemo: opts.seedDemo ?? false,
    staticDir: path.join(tmp, 'no-dist'),
    logLevel: 'silent',
    // a suite signs in and calls far more often than a person: the request limit and the
    // sessions-per-account limit are set out of reach unless a test sets them (throttle, sessions tests)
    rateLimitPerMinute: 1_000_000,
    rateLimitLoginPerMinute: 1_000_000,
    sessionsPerAccount: 1_000_000,
    ...opts.config,
  };
  let db: SqlDb;
  let pgDb: string | null = null;
  if (pgUrl) {
    // a database of its own, copied from the run's migrated and seeded template (with the work
    // engine's tables): CREATE DATABASE … TEMPLATE takes a fraction of migrating afresh
    const template = config.seedDemo ? await pgDemoTemplate(pgUrl) : await pgTemplate(pgUrl);
    pgDb = schema;
    const admin = await openPg(pgUrl, { max: 1 });
    try {
      await createFromTemplate(admin, pgDb, template);
    } finally {
      await admin.close();
    }
    config.jobsSchema = opts.config?.jobsSchema ?? PG_JOBS_SCHEMA;
    db = await openPg(dbUrl(pgUrl, pgDb), { schema: PG_SCHEMA });
  } else {
    fs.cpSync(config.seedDemo ? await pgliteDemoTemplate() : await pgliteTemplate(), config.dataDir, { recursive: true, filter: (src) => path.basename(src) !== LOCK_FILE });
    db = await openDb(config);
  }
  await migrate(db);
  // demoOnce: a demo template's mark skips the demo seed already run on it (pgliteDemoTemplate)
  await seedAll(db, config, { demoOnce: true });
  if (config.adminEmail === ADMIN_EMAIL && config.adminPassword === ADMIN_PASSWORD) {
    await db.query(`UPDATE accounts SET password_hash = $2 WHERE email = $1 AND password_hash LIKE 'scrypt$131072$%'`, [ADMIN_EMAIL, cachedHash(ADMIN_PASSWORD)]);
  }
  // the tests' own writes (accounts and roles made straight in the database) go through the
  // app's tracker too, so the app's short-lived read caches see them as it sees its own
  db = trackWrites(db);
  const app = await buildApp({ config, db, routes: opts.routes, clock: opts.clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  let seq = 0;

  const server: TestServer = {
    url,
    app,
    db,
    config,
    anon: () => new ApiClient(url),
    async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
      const c = new ApiClient(url);
      const r = await c.post('user/login', { email, password });
      if (r.body.code !== 10000) throw new Error(`login ${email} failed: ${r.body.code} ${r.body.msg}`);
      return c;
    },
    async loginWithKeys(keys, o = {}) {
      seq += 1;
      const email = o.email ?? `limited${seq}-${randomBytes(3).toString('hex')}@example.com`;
      const password = o.password ?? 'limited-password';
      const perms = await db.query<{ id: number }>(
        `SELECT id FROM permissions WHERE (module || '.' || permission_key) = ANY($1::text[]) OR (permission_type = 4 AND module = ANY($1::text[]))`,
        [keys],
      );
      const role = await db.query<{ id: number }>('INSERT INTO roles (name) VALUES ($1) RETURNING id', [`role for ${email}`]);
      const roleId = role.rows[0].id;
      for (const p of perms.rows) await db.query('INSERT INTO role_permissions (role_id, permission_id) VALUES ($1, $2)', [roleId, p.id]);
      // written straight to the database (account/create has its own tests): one scrypt hash per
      // distinct password and process instead of one per account keeps the suite fast
      const acc = await db.query<{ id: number }>(
        'INSERT INTO accounts (email, name, password_hash) VALUES ($1, $1, $2) RETURNING id',
        [email, cachedHash(password)],
      );
      await db.query('INSERT INTO account_roles (account_id, role_id) VALUES ($1, $2)', [acc.rows[0].id, roleId]);
      const c = (await server.login(email, password)) as ApiClient & { accountId: number; roleId: number };
      c.accountId = acc.rows[0].id;
      c.roleId = roleId;
      return c;
    },
    async close() {
      await app.close();
      await db.close();
      if (pgUrl && pgDb) {
        const admin = await openPg(pgUrl, { max: 1 });
        await admin.query(`DROP DATABASE IF EXISTS ${pgDb} WITH (FORCE)`);
        await admin.close();
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
  return server;
}
