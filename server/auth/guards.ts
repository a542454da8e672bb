import type { Queryable } from '../db/db.js';
import { conflict, notFound } from '../http/errors.js';

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
  job: 'admin_center.admin.job',
  jobDetail: 'admin_center.admin.job.detail',
  jobRetry: 'admin_center.admin.job.retry',
  jobCancel: 'admin_center.admin.job.cancel',
} as const;

/** Run after a change inside its transaction: throwing rolls the change back. */
export async function assertSuperAdminRemains(q: Queryable): Promise<void> {
  const r = await q.query<{ n: number }>(
    `SELECT count(DISTINCT a.id)::int AS n FROM accounts a
     JOIN account_roles ar ON ar.account_id = a.id JOIN roles r ON r.id = ar.role_id
     WHERE a.status = 1 AND r.is_super_admin`,
  );
  if (r.rows[0].n === 0) throw conflict('the last enabled super admin account cannot be removed, disabled or demoted / 最后一个启用的超级管理员账号不能删除、停用或降级');
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
