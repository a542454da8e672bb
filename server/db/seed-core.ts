import { MANIFEST, flattenManifest } from '../../src/contract/permission-manifest.js';
import type { Db, Queryable } from './db.js';
import { generatePassword, hashPassword } from '../auth/password.js';

export const SUPER_ADMIN_ROLE = '超级管理员';
export const DEMO_OPERATOR = {
  email: 'operator@example.com',
  name: '文本运营 Demo',
  password: 'operator-demo-2026',
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
}

export interface SeedReport {
  /** set only when the first super admin was created by this call */
  admin?: { email: string; password: string; generated: boolean };
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
 * Keeps the permission table in step with the manifest (module entries type 4, then every
 * node, pid = parent's id). Reads the table once and writes only rows that differ, so a start
 * with an unchanged manifest costs one query. Rows added through the API are left alone.
 */
export async function seedPermissions(q: Queryable): Promise<void> {
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
  for (const m of MANIFEST) {
    await upsert({ pid: 0, module: m.module, permission_key: m.module, permission_name: m.title['zh-CN'], permission_name_en: m.title['en-US'], permission_type: 4, frontend_route: '', sort: sort++ });
  }
  for (const e of flattenManifest()) {
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

/**
 * Idempotent core seed: permissions from the manifest, the first super admin on an empty
 * database, and (demo) the text-operator role and account.
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
    if (opts.demo) {
      const d = DEMO_OPERATOR;
      const roleId = await ensureRole(q, d.role, false, d.keys);
      await ensureAccount(q, d.email, d.name, d.password, roleId);
      report.demoAccounts.push({ email: d.email, password: d.password, role: d.role });
    }
  });
  return report;
}
