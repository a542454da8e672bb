/**
 * The privilege ceiling: the one place that decides whether an actor may hand out, or take over,
 * permission keys. A super admin may do anything. Anyone else:
 * - grants only keys it holds itself (role create / update: the permissions added), and removes
 *   only keys it holds itself (role update: the permissions taken away — stripping a bigger
 *   role is acting on keys it does not have);
 * - assigns only roles whose keys it holds, never a super-admin role (account create / update);
 * - manages only accounts whose keys it holds, never a super admin's (update, delete, reset
 *   password: resetting the password of a bigger account is taking its keys);
 * - mints a service token only for records whose page keys it holds (server/routes/service-tokens.ts);
 * - never creates, edits or deletes a super-admin role, nor touches the permission tree
 *   (renaming a permission it holds to a key it lacks would hand it that key).
 * Every refusal is 40003 with a message saying which rule; registration audits it
 * (server/http/register.ts).
 */
import { Code } from '../../src/contract/codes.js';
import type { Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import type { SessionUser } from '../http/route.js';

/** A 40003 naming the rule (english / 中文). */
export const refused = (en: string, zh: string): AppError => new AppError(Code.FORBIDDEN, `${en} / ${zh}`);

/** At most this many missing keys are named in a refusal. */
const NAMED = 5;

/** The flattened key of a permission row as sessions see it (server/auth/sessions.ts). */
const KEY_SQL = `p.module || '.' || p.permission_key`;

/** The keys of `keys` the actor does not hold (none for a super admin). */
export function keysBeyond(user: SessionUser, keys: Iterable<string>): string[] {
  if (user.isSuperAdmin) return [];
  const out = new Set<string>();
  for (const k of keys) if (!user.keys.has(k)) out.add(k);
  return [...out].sort();
}

/** Refuses (40003, naming at most five) unless the actor holds every one of `keys`. */
export function assertHolds(user: SessionUser, keys: Iterable<string>, en: string, zh: string): void {
  const missing = keysBeyond(user, keys);
  if (missing.length === 0) return;
  const named = missing.slice(0, NAMED).join(', ') + (missing.length > NAMED ? ` (+${missing.length - NAMED})` : '');
  throw refused(`${en}: ${named}`, `${zh}：${named}`);
}

const keysOf = async (q: Queryable, permissionIds: number[]): Promise<string[]> =>
  (await q.query<{ key: string }>(`SELECT ${KEY_SQL} AS key FROM permissions p WHERE p.id = ANY($1::int[])`, [permissionIds])).rows.map((x) => x.key);

/** Role create / update: the permissions given (or added) must all be held by the actor. */
export async function assertMayGrantPermissions(q: Queryable, user: SessionUser, permissionIds: number[]): Promise<void> {
  if (user.isSuperAdmin || permissionIds.length === 0) return;
  assertHolds(user, await keysOf(q, permissionIds), 'you cannot grant permissions you do not hold yourself', '不能授予自己未拥有的权限');
}

/** Role update: the permissions taken away must all be held by the actor too. */
export async function assertMayRemovePermissions(q: Queryable, user: SessionUser, permissionIds: number[]): Promise<void> {
  if (user.isSuperAdmin || permissionIds.length === 0) return;
  assertHolds(user, await keysOf(q, permissionIds), 'you cannot remove permissions you do not hold yourself', '不能移除自己未拥有的权限');
}

/** Role create / update / delete: a super-admin role (or making one) is for super admins only. */
export function assertMayManageRole(user: SessionUser, role: { is_super_admin?: boolean }): void {
  if (!user.isSuperAdmin && role.is_super_admin) {
    throw refused('only a super admin may create, change or delete a super-admin role', '只有超级管理员可以创建、修改或删除超级管理员角色');
  }
}

/** Account create / update: every role assigned must be within the actor's keys, none super admin. */
export async function assertMayAssignRoles(q: Queryable, user: SessionUser, roleIds: number[]): Promise<void> {
  if (user.isSuperAdmin || roleIds.length === 0) return;
  const r = await q.query<{ is_super_admin: boolean; keys: string[] }>(
    `SELECT r.is_super_admin,
            ARRAY(SELECT ${KEY_SQL} FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = r.id) AS keys
     FROM roles r WHERE r.id = ANY($1::int[])`,
    [roleIds],
  );
  if (r.rows.some((x) => x.is_super_admin)) {
    throw refused('only a super admin may assign a super-admin role', '只有超级管理员可以分配超级管理员角色');
  }
  assertHolds(
    user,
    r.rows.flatMap((x) => x.keys),
    'you cannot assign a role that holds permissions you do not hold yourself',
    '不能分配包含自己未拥有权限的角色',
  );
}

/**
 * Account update / delete / reset password: the target must hold no key beyond the actor's and
 * must not be a super admin. (An actor may always manage its own account.)
 */
export async function assertMayManageAccount(q: Queryable, user: SessionUser, accountId: number): Promise<void> {
  if (user.isSuperAdmin || accountId === user.id) return;
  const r = await q.query<{ is_super_admin: boolean; keys: string[] }>(
    `SELECT EXISTS (SELECT 1 FROM account_roles ar JOIN roles r ON r.id = ar.role_id WHERE ar.account_id = $1 AND r.is_super_admin) AS is_super_admin,
            ARRAY(SELECT DISTINCT ${KEY_SQL} FROM account_roles ar JOIN role_permissions rp ON rp.role_id = ar.role_id
                  JOIN permissions p ON p.id = rp.permission_id WHERE ar.account_id = $1) AS keys`,
    [accountId],
  );
  const target = r.rows[0];
  if (target.is_super_admin) {
    throw refused('only a super admin may change a super admin account', '只有超级管理员可以修改超级管理员账号');
  }
  assertHolds(user, target.keys, 'you cannot manage an account that holds permissions you do not hold yourself', '不能管理拥有自己未拥有权限的账号');
}

/** Permission create / update / delete: the permission tree is the super admin's alone. */
export function assertMayEditPermissionTree(user: SessionUser): void {
  if (!user.isSuperAdmin) {
    throw refused('only a super admin may change the permission tree', '只有超级管理员可以修改权限树');
  }
}
