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

/** Upserts the permission table from the manifest (module entries type 4, then every node). */
export async function seedPermissions(q: Queryable): Promise<void> {
  const ids = new Map<string, number>();
  const upsert = async (module: string, key: string, pid: number, zh: string, en: string, type: number, route: string, sort: number) => {
    const r = await q.query<{ id: number }>(
      `INSERT INTO permissions (pid, module, permission_key, permission_name, permission_name_en, permission_type, frontend_route, sort)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (module, permission_key) DO UPDATE SET pid = EXCLUDED.pid, permission_name = EXCLUDED.permission_name,
         permission_name_en = EXCLUDED.permission_name_en, permission_type = EXCLUDED.permission_type,
         frontend_route = EXCLUDED.frontend_route, sort = EXCLUDED.sort
       RETURNING id`,
      [pid, module, key, zh, en, type, route, sort],
    );
    ids.set(`${module}|${key}`, r.rows[0].id);
  };
  let sort = 0;
  for (const m of MANIFEST) await upsert(m.module, m.module, 0, m.title['zh-CN'], m.title['en-US'], 4, '', sort++);
  for (const e of flattenManifest()) {
    const pid = ids.get(`${e.module}|${e.parent}`);
    if (pid === undefined) throw new Error(`manifest: parent ${e.parent} of ${e.module}.${e.node.key} not seeded`);
    await upsert(e.module, e.node.key, pid, e.node.title['zh-CN'], e.node.title['en-US'], e.node.type, e.path ?? '', sort++);
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
