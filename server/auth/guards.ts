import type { Queryable } from '../db/db.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import type { SessionUser } from '../http/route.js';

/** Flattened keys of the admin center routes (src/contract/permission-manifest.ts). */
const P = 'admin_center.admin.permission';
export const Keys = {
  role: `${P}.role`,
  roleCreate: `${P}.role.create`,
  roleUpdate: `${P}.role.update`,
  roleDetail: `${P}.role.detail`,
  roleDelete: `${P}.role.delete`,
  account: `${P}.account`,
  accountCreate: `${P}.account.create`,
  accountUpdate: `${P}.account.update`,
  accountDelete: `${P}.account.delete`,
  accountReset: `${P}.account.reset_password`,
  permission: `${P}.permission`,
  permissionCreate: `${P}.permission.create`,
  permissionUpdate: `${P}.permission.update`,
  permissionDelete: `${P}.permission.delete`,
  auditLogs: `${P}.audit_logs`,
} as const;

/** Run after a change inside its transaction: throwing rolls the change back. */
export async function assertSuperAdminRemains(q: Queryable): Promise<void> {
  const r = await q.query<{ n: number }>(
    `SELECT count(DISTINCT a.id)::int AS n FROM accounts a
     JOIN account_roles ar ON ar.account_id = a.id JOIN roles r ON r.id = ar.role_id
     WHERE a.status = 1 AND r.is_super_admin`,
  );
  if (r.rows[0].n === 0) throw conflict('the last enabled super admin account cannot be removed, disabled or demoted');
}

/** Only a super admin may grant super-admin roles or touch super-admin roles/accounts. */
export async function assertMayUseRoles(q: Queryable, user: SessionUser, roleIds: number[]): Promise<void> {
  if (user.isSuperAdmin || roleIds.length === 0) return;
  const r = await q.query('SELECT 1 FROM roles WHERE id = ANY($1::int[]) AND is_super_admin', [roleIds]);
  if (r.rows.length > 0) throw forbidden();
}

export async function isSuperAccount(q: Queryable, accountId: number): Promise<boolean> {
  const r = await q.query(
    'SELECT 1 FROM account_roles ar JOIN roles r ON r.id = ar.role_id WHERE ar.account_id = $1 AND r.is_super_admin',
    [accountId],
  );
  return r.rows.length > 0;
}

/** A non-super admin may only grant permissions it holds itself. */
export async function assertMayGrant(q: Queryable, user: SessionUser, permissionIds: number[]): Promise<void> {
  if (user.isSuperAdmin || permissionIds.length === 0) return;
  const r = await q.query<{ module: string; permission_key: string; permission_type: number }>(
    'SELECT module, permission_key, permission_type FROM permissions WHERE id = ANY($1::int[])',
    [permissionIds],
  );
  for (const p of r.rows) {
    const key = Number(p.permission_type) === 4 ? p.module : `${p.module}.${p.permission_key}`;
    if (!user.keys.has(key)) throw forbidden();
  }
}

/** Every id must exist in `table`, else 40004 naming the first missing one. */
export async function assertIdsExist(q: Queryable, table: 'roles' | 'permissions', ids: number[], what: string): Promise<void> {
  if (ids.length === 0) return;
  const r = await q.query<{ id: number }>(`SELECT id FROM ${table} WHERE id = ANY($1::int[])`, [ids]);
  const have = new Set(r.rows.map((x) => x.id));
  const missing = ids.find((id) => !have.has(id));
  if (missing !== undefined) {
    throw notFound(`${what} ${missing}`);
  }
}
