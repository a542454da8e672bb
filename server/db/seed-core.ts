import { PermissionType, flattenManifest, type ModuleManifest } from '../../src/contract/permission-manifest.js';
import { diskPermissionTree } from '../schemas/permission-tree.js';
import { publishedKeysOf } from '../schemas/published-keys.js';
import type { Db, Queryable } from './db.js';
import { generatePassword, hashPassword, verifyPassword } from '../auth/password.js';
import { revokeAccountSessions } from '../auth/sessions.js';

export const SUPER_ADMIN_ROLE = '超级管理员';
export const DEMO_OPERATOR = {
  email: 'operator@example.com',
  name: '文本运营 Demo',
  role: '文本运营',
  /** flattened keys: the text module, its home, and the shop menu's list and plan pages */
  keys: [
    'intelligent_text',
    'intelligent_text.text_home',
    'intelligent_text.text.shop',
    'intelligent_text.text.shop.list',
    'intelligent_text.text.shop.list.edit',
    'intelligent_text.text.shop.plan',
    'intelligent_text.text.shop.plan.create',
    'intelligent_text.text.shop.plan.update',
    'intelligent_text.text.shop.plan_order',
    'intelligent_text.text.shop.customer_list',
  ],
};

export interface SeedCoreOptions {
  adminEmail: string;
  /** empty → generated */
  adminPassword?: string;
  demo: boolean;
  /** the demo operator's password; empty → generated (printed once) */
  demoPassword?: string;
}

export interface SeedReport {
  /** set only when the first super admin was created by this call */
  admin?: { email: string; password: string; generated: boolean };
  /** demo accounts whose password this call set (created, or a published password replaced): shown once */
  demoAccounts: Array<{ email: string; password: string; role: string }>;
}

interface PermRow {
  id: number;
  pid: number;
  module: string;
  permission_key: string;
  permission_name: string;
  permission_name_en: string;
  permission_type: number;
  frontend_route: string;
  sort: number;
}

/**
 * Keeps the permission table in step with the permission tree — the manifest plus the menu pages
 * the schemas declare (server/schemas/permission-tree.ts): module entries type 4, then every
 * node, pid = parent's id. Reads the table once and writes only rows that differ, so a start
 * with an unchanged tree costs one query. Rows added through the API are left alone. The app
 * runs it again when the dev watch changes the tree, so a page added live can be granted.
 */
export async function seedPermissions(q: Queryable, tree?: readonly ModuleManifest[]): Promise<void> {
  const manifest = tree ?? diskPermissionTree();
  const existing = await q.query<PermRow>(
    'SELECT id, pid, module, permission_key, permission_name, permission_name_en, permission_type, frontend_route, sort FROM permissions',
  );
  const rows = new Map(existing.rows.map((r) => [`${r.module}|${r.permission_key}`, r]));
  const ids = new Map<string, number>();
  const upsert = async (want: Omit<PermRow, 'id'>) => {
    const k = `${want.module}|${want.permission_key}`;
    const have = rows.get(k);
    const same =
      have &&
      have.pid === want.pid &&
      have.permission_name === want.permission_name &&
      have.permission_name_en === want.permission_name_en &&
      Number(have.permission_type) === want.permission_type &&
      have.frontend_route === want.frontend_route &&
      have.sort === want.sort;
    if (have && same) {
      ids.set(k, have.id);
      return;
    }
    const r = await q.query<{ id: number }>(
      `INSERT INTO permissions (pid, module, permission_key, permission_name, permission_name_en, permission_type, frontend_route, sort)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (module, permission_key) DO UPDATE SET pid = EXCLUDED.pid, permission_name = EXCLUDED.permission_name,
         permission_name_en = EXCLUDED.permission_name_en, permission_type = EXCLUDED.permission_type,
         frontend_route = EXCLUDED.frontend_route, sort = EXCLUDED.sort, updated_at = now()
       RETURNING id`,
      [want.pid, want.module, want.permission_key, want.permission_name, want.permission_name_en, want.permission_type, want.frontend_route, want.sort],
    );
    ids.set(k, r.rows[0].id);
  };
  let sort = 0;
  for (const m of manifest) {
    await upsert({ pid: 0, module: m.module, permission_key: m.module, permission_name: m.title['zh-CN'], permission_name_en: m.title['en-US'], permission_type: 4, frontend_route: '', sort: sort++ });
  }
  for (const e of flattenManifest(manifest)) {
    const pid = ids.get(`${e.module}|${e.parent}`);
    if (pid === undefined) throw new Error(`manifest: parent ${e.parent} of ${e.module}.${e.node.key} not seeded`);
    await upsert({
      pid,
      module: e.module,
      permission_key: e.node.key,
      permission_name: e.node.title['zh-CN'],
      permission_name_en: e.node.title['en-US'],
      permission_type: e.node.type,
      frontend_route: e.path ?? '',
      sort: sort++,
    });
  }
  await pruneStalePages(q, manifest, existing.rows, new Set(ids.keys()));
}

/**
 * A page row the tree no longer has, whose route a page of the tree now holds under another key,
 * and whose key is not published with the schemas (schemas/meta), is that page under a key it
 * does not have any more — a key declared new under the dev watch and then reverted (before
 * issue 22 any typo in a page's `permission`) left two rows with the same title. It is removed
 * (its grants go with it: ON DELETE CASCADE) unless rows hang below it. A published key is kept
 * (while a page is renamed, roles keep their grants of the old key until the next
 * `npm run schemas:meta`), and so is a row of a route no page holds (added through the API).
 */
async function pruneStalePages(q: Queryable, manifest: readonly ModuleManifest[], rows: readonly PermRow[], inTree: ReadonlySet<string>): Promise<void> {
  const published = publishedKeysOf();
  if (!published) return; // no published list (a stripped schemas copy): nothing is known to be stale
  const pageRoutes = new Set(flattenManifest(manifest).filter((e) => e.node.type === PermissionType.PAGE && e.path).map((e) => e.path!));
  const parents = new Set((await q.query<{ pid: number }>('SELECT DISTINCT pid FROM permissions')).rows.map((r) => r.pid));
  const stale = rows.filter(
    (r) =>
      !inTree.has(`${r.module}|${r.permission_key}`) &&
      !published.has(`${r.module}.${r.permission_key}`) &&
      Number(r.permission_type) === PermissionType.PAGE &&
      pageRoutes.has(r.frontend_route) &&
      !parents.has(r.id),
  );
  if (stale.length) await q.query('DELETE FROM permissions WHERE id = ANY($1::int[])', [stale.map((r) => r.id)]);
}

async function ensureRole(q: Queryable, name: string, isSuper: boolean, keys: string[] = []): Promise<number> {
  const found = await q.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [name]);
  if (found.rows[0]) return found.rows[0].id;
  const r = await q.query<{ id: number }>('INSERT INTO roles (name, is_super_admin) VALUES ($1, $2) RETURNING id', [name, isSuper]);
  const id = r.rows[0].id;
  if (keys.length > 0) {
    await q.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT $1, id FROM permissions
       WHERE (module || '.' || permission_key) = ANY($2::text[]) OR (permission_type = 4 AND module = ANY($2::text[]))`,
      [id, keys],
    );
  }
  return id;
}

async function ensureAccount(q: Queryable, email: string, name: string, password: string, roleId: number): Promise<boolean> {
  const found = await q.query('SELECT id FROM accounts WHERE email = $1', [email]);
  if (found.rows.length > 0) return false;
  const r = await q.query<{ id: number }>(
    'INSERT INTO accounts (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id',
    [email, name, await hashPassword(password)],
  );
  await q.query('INSERT INTO account_roles (account_id, role_id) VALUES ($1, $2)', [r.rows[0].id, roleId]);
  return true;
}

/** The marker (table app_setting) that the demo operator was created once: never again after that. */
export const DEMO_OPERATOR_MARK = 'demo_operator_created';
/** The password the demo operator had before it was generated (published in old docs): replaced where found. */
const PUBLISHED_DEMO_PASSWORD = 'operator-demo-2026';

/**
 * The demo operator, created once, with demo data only, with a generated password (or
 * DEMO_PASSWORD) shown once; a marker row remembers it, so an admin who deletes it is not
 * overruled at the next start. On a database from before the marker, an existing demo operator
 * still holding the once published password gets a generated one instead (whatever the demo
 * setting). Returns the account when this call set its password.
 */
async function seedDemoOperator(q: Queryable, opts: SeedCoreOptions): Promise<SeedReport['demoAccounts'][number] | null> {
  const d = DEMO_OPERATOR;
  const mark = await q.query('SELECT 1 FROM app_setting WHERE key = $1', [DEMO_OPERATOR_MARK]);
  if (mark.rows.length > 0) return null;
  const existing = await q.query<{ id: number; password_hash: string }>('SELECT id, password_hash FROM accounts WHERE email = $1', [d.email]);
  const acc = existing.rows[0];
  if (!acc && !opts.demo) return null; // not created yet: demo data may ask for it later
  const password = opts.demoPassword || generatePassword();
  let out: SeedReport['demoAccounts'][number] | null = { email: d.email, password, role: d.role };
  if (!acc) {
    const roleId = await ensureRole(q, d.role, false, d.keys);
    await ensureAccount(q, d.email, d.name, password, roleId);
  } else if (await verifyPassword(PUBLISHED_DEMO_PASSWORD, acc.password_hash)) {
    await q.query('UPDATE accounts SET password_hash = $1, updated_at = now() WHERE id = $2', [await hashPassword(password), acc.id]);
    await revokeAccountSessions(q, acc.id);
  } else {
    out = null; // created before the marker and its password already changed: leave it
  }
  await q.query(
    `INSERT INTO app_setting (key, value) VALUES ($1, jsonb_build_object('email', $2::text, 'at', now())) ON CONFLICT (key) DO NOTHING`,
    [DEMO_OPERATOR_MARK, d.email],
  );
  return out;
}

/**
 * Idempotent core seed: permissions from the manifest, the first super admin on an empty
 * database, and (demo, once) the text-operator role and account.
 */
export async function seedCore(db: Db, opts: SeedCoreOptions): Promise<SeedReport> {
  const report: SeedReport = { demoAccounts: [] };
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock(724312)'); // instances starting together seed one at a time
    await seedPermissions(q);
    const count = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts');
    if (count.rows[0].n === 0) {
      const generated = !opts.adminPassword;
      const password = opts.adminPassword || generatePassword();
      const roleId = await ensureRole(q, SUPER_ADMIN_ROLE, true);
      await ensureAccount(q, opts.adminEmail.toLowerCase(), 'Admin', password, roleId);
      report.admin = { email: opts.adminEmail.toLowerCase(), password, generated };
    }
    const demo = await seedDemoOperator(q, opts);
    if (demo) report.demoAccounts.push(demo);
  });
  return report;
}
