import { Type, type Static } from '@sinclair/typebox';
import { COMMON_HOME } from '../../src/contract/permission-manifest.js';
import type { Queryable } from '../db/db.js';
import { assertMayAssignRoles, assertMayManageAccount } from '../auth/ceiling.js';
import { Keys, assertIdsExist, assertSuperAdminRemains } from '../auth/guards.js';
import { MIN_PASSWORD_LENGTH, generatePassword, hashPassword } from '../auth/password.js';
import { assertNewPassword } from '../auth/password-policy.js';
import { revokeAccountSessions } from '../auth/sessions.js';
import { conflict, notFound } from '../http/errors.js';
import { pageFields, pageReply, paged } from '../http/list.js';
import { defineRoutes, route, withTx } from '../http/route.js';
import { NoReply, Nullable } from '../http/typebox.js';
import { RolePermissionsReply, RoleRef, type PermissionRow } from '../../src/contract/replies/session.js';

const ts = Nullable(Type.String({ format: 'date-time' }));
const AccountRow = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  status: Type.Integer(),
  roles: Type.Array(RoleRef),
  role_ids: Type.Array(Type.Integer()),
  last_login_at: ts,
  created_at: ts,
  updated_at: ts,
});
type AccountRow = Static<typeof AccountRow>;
/** body fields (TypeBox: the handlers get their types from these, route() in server/http/route.ts) */
const fields = {
  email: Type.String({ format: 'email', maxLength: 200 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  role_ids: Type.Array(Type.Integer(), { uniqueItems: true, maxItems: 100 }),
  status: Type.Integer({ enum: [0, 1] }),
};
const id = Type.Integer({ minimum: 1 });
const newPassword = Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 200 });

const ACCOUNT_SELECT = `a.id, a.email, a.name, a.status, a.last_login_at, a.created_at, a.updated_at,
  COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'is_super_admin', r.is_super_admin) ORDER BY r.id)
    FROM account_roles ar JOIN roles r ON r.id = ar.role_id WHERE ar.account_id = a.id), '[]'::json) AS roles,
  COALESCE((SELECT array_agg(ar.role_id ORDER BY ar.role_id) FROM account_roles ar WHERE ar.account_id = a.id), '{}') AS role_ids`;

async function loadAccount(q: Queryable, id: number) {
  const r = await q.query<AccountRow>(
    `SELECT ${ACCOUNT_SELECT} FROM accounts a WHERE a.id = $1`,
    [id],
  );
  if (!r.rows[0]) throw notFound(`account ${id}`);
  return r.rows[0];
}

const view = (a: { id: number; email: string; name: string; status: number; role_ids: number[] }) => ({
  id: a.id,
  email: a.email,
  name: a.name,
  status: a.status,
  role_ids: a.role_ids,
});

async function emailTaken(q: Queryable, email: string, exceptId = 0) {
  const r = await q.query('SELECT 1 FROM accounts WHERE email = $1 AND id <> $2', [email, exceptId]);
  return r.rows.length > 0;
}

async function setRoles(q: Queryable, accountId: number, ids: number[]) {
  await q.query('DELETE FROM account_roles WHERE account_id = $1', [accountId]);
  if (ids.length > 0) await q.query('INSERT INTO account_roles (account_id, role_id) SELECT $1, unnest($2::int[])', [accountId, ids]);
}

export const routes = defineRoutes([
  route({
    method: 'POST',
    path: 'account/role-permissions',
    access: 'login',
    summary: "The caller's permissions (flat, plus the common home) and roles",
    reply: RolePermissionsReply,
    async handler(ctx) {
      const u = ctx.user!;
      const cols = 'p.id, p.pid, p.module, p.permission_key, p.permission_name, p.permission_name_en, p.permission_type, p.frontend_route';
      const perms = u.isSuperAdmin
        ? await ctx.db.query<PermissionRow>(`SELECT ${cols} FROM permissions p ORDER BY p.sort, p.id`)
        : await ctx.db.query<PermissionRow>(
            `SELECT DISTINCT ${cols}, p.sort FROM account_roles ar JOIN role_permissions rp ON rp.role_id = ar.role_id
             JOIN permissions p ON p.id = rp.permission_id WHERE ar.account_id = $1 ORDER BY p.sort, p.id`,
            [u.id],
          );
      const roles = await ctx.db.query<Static<typeof RoleRef>>(
        `SELECT r.id, r.name, r.is_super_admin FROM account_roles ar JOIN roles r ON r.id = ar.role_id WHERE ar.account_id = $1 ORDER BY r.id`,
        [u.id],
      );
      return { permissions: [{ ...COMMON_HOME, permission_name_en: 'Home' }, ...perms.rows], roles: roles.rows };
    },
  }),
  route({
    method: 'GET',
    path: 'account/list',
    access: { permission: Keys.account },
    summary: 'Accounts, paged; filter by keyword (email or name), status, role',
    query: Type.Object({
      ...pageFields,
      keyword: Type.Optional(Type.String({ maxLength: 200 })),
      email: Type.Optional(Type.String({ maxLength: 200 })),
      name: Type.Optional(Type.String({ maxLength: 100 })),
      status: Type.Optional(Type.Integer({ enum: [0, 1] })),
      role_id: Type.Optional(Type.Integer()),
    }),
    reply: pageReply(AccountRow),
    handler: (ctx) => {
      const q = ctx.query;
      return paged<AccountRow>(
        ctx.db,
        {
          select: ACCOUNT_SELECT,
          fromWhere: `FROM accounts a WHERE ($1::text IS NULL OR a.email ILIKE '%' || $1::text || '%' OR a.name ILIKE '%' || $1::text || '%')
            AND ($2::text IS NULL OR a.email ILIKE '%' || $2::text || '%')
            AND ($3::text IS NULL OR a.name ILIKE '%' || $3::text || '%')
            AND ($4::int IS NULL OR a.status = $4::int)
            AND ($5::int IS NULL OR EXISTS (SELECT 1 FROM account_roles x WHERE x.account_id = a.id AND x.role_id = $5::int))`,
          orderBy: 'a.id',
          params: [q.keyword?.trim() || null, q.email?.trim() || null, q.name?.trim() || null, q.status ?? null, q.role_id ?? null],
        },
        q,
      );
    },
  }),
  route({
    method: 'POST',
    path: 'account/create',
    access: { permission: Keys.accountCreate },
    // the password hash runs before the transaction, holding no connection (issue 12 item 3)
    transaction: false,
    summary: 'Create an account',
    body: Type.Object({
      email: fields.email,
      name: fields.name,
      password: newPassword,
      role_ids: Type.Optional(fields.role_ids),
      status: Type.Optional(fields.status),
    }),
    reply: AccountRow,
    async handler(ctx) {
      const email = ctx.body.email.trim().toLowerCase();
      const roleIds = ctx.body.role_ids ?? [];
      await assertNewPassword(ctx.body.password, email);
      const hash = await hashPassword(ctx.body.password);
      return withTx(ctx, async (tx) => {
        await assertMayAssignRoles(tx.db, tx.user!, roleIds);
        await assertIdsExist(tx.db, 'roles', roleIds, 'role');
        if (await emailTaken(tx.db, email)) throw conflict(`an account with email ${email} already exists / 邮箱 ${email} 已被其他账号使用`);
        const r = await tx.db.query<{ id: number }>(
          'INSERT INTO accounts (email, name, password_hash, status) VALUES ($1, $2, $3, $4) RETURNING id',
          [email, tx.body.name.trim(), hash, tx.body.status ?? 1],
        );
        await setRoles(tx.db, r.rows[0].id, roleIds);
        const after = await loadAccount(tx.db, r.rows[0].id);
        await tx.audit({ action: 'create', resource: 'account', targetId: after.id, before: null, after: view(after) });
        return after;
      });
    },
  }),
  route({
    method: 'POST',
    path: 'account/update',
    access: { permission: Keys.accountUpdate },
    summary: 'Update an account (fields given are changed); disabling revokes its sessions',
    body: Type.Object({
      id,
      email: Type.Optional(fields.email),
      name: Type.Optional(fields.name),
      role_ids: Type.Optional(fields.role_ids),
      status: Type.Optional(fields.status),
    }),
    reply: AccountRow,
    async handler(ctx) {
      const user = ctx.user!;
      const before = await loadAccount(ctx.db, ctx.body.id);
      await assertMayManageAccount(ctx.db, user, before.id);
      if (ctx.body.role_ids) {
        // roles it already has stay (keeping them gains nothing); every role added is checked
        await assertMayAssignRoles(ctx.db, user, ctx.body.role_ids.filter((id) => !before.role_ids.includes(id)));
        await assertIdsExist(ctx.db, 'roles', ctx.body.role_ids, 'role');
      }
      if (before.id === user.id && ctx.body.status === 0) throw conflict('you cannot disable your own account / 不能停用自己的账号');
      const email = ctx.body.email?.trim().toLowerCase() ?? before.email;
      if (email !== before.email && (await emailTaken(ctx.db, email, before.id))) throw conflict(`an account with email ${email} already exists / 邮箱 ${email} 已被其他账号使用`);
      const status = ctx.body.status ?? before.status;
      await ctx.db.query('UPDATE accounts SET email = $1, name = $2, status = $3, updated_at = now() WHERE id = $4', [
        email,
        ctx.body.name?.trim() ?? before.name,
        status,
        before.id,
      ]);
      if (ctx.body.role_ids) await setRoles(ctx.db, before.id, ctx.body.role_ids);
      if (status === 0 && before.status !== 0) await revokeAccountSessions(ctx.db, before.id);
      await assertSuperAdminRemains(ctx.db);
      const after = await loadAccount(ctx.db, before.id);
      await ctx.audit({ action: 'update', resource: 'account', targetId: before.id, before: view(before), after: view(after) });
      return after;
    },
  }),
  route({
    method: 'POST',
    path: 'account/delete',
    access: { permission: Keys.accountDelete },
    summary: 'Delete an account (its sessions end with it)',
    body: Type.Object({ id }),
    reply: NoReply,
    async handler(ctx) {
      const user = ctx.user!;
      if (ctx.body.id === user.id) throw conflict('you cannot delete your own account / 不能删除自己的账号');
      const before = await loadAccount(ctx.db, ctx.body.id);
      await assertMayManageAccount(ctx.db, user, before.id);
      await revokeAccountSessions(ctx.db, before.id);
      await ctx.db.query('DELETE FROM accounts WHERE id = $1', [before.id]);
      await assertSuperAdminRemains(ctx.db);
      await ctx.audit({ action: 'delete', resource: 'account', targetId: before.id, before: view(before), after: null });
      return null;
    },
  }),
  route({
    method: 'POST',
    path: 'account/reset-password',
    access: { permission: Keys.accountReset },
    // the password hash runs before the transaction, holding no connection (issue 12 item 3)
    transaction: false,
    summary: 'Set a new password (given, or generated and returned once); ends the account’s sessions',
    body: Type.Object({ id, password: Type.Optional(newPassword) }),
    reply: Type.Object({ password: Type.String(), generated: Type.Boolean() }),
    async handler(ctx) {
      const user = ctx.user!;
      const target = await loadAccount(ctx.db, ctx.body.id);
      await assertMayManageAccount(ctx.db, user, target.id);
      if (ctx.body.password) await assertNewPassword(ctx.body.password, target.email);
      const generated = !ctx.body.password;
      const password = ctx.body.password ?? generatePassword();
      const hash = await hashPassword(password);
      await withTx(ctx, async (tx) => {
        // checked again in the transaction: the account may have changed while the hash ran
        const now = await loadAccount(tx.db, target.id);
        await assertMayManageAccount(tx.db, user, now.id);
        await tx.db.query('UPDATE accounts SET password_hash = $1, updated_at = now() WHERE id = $2', [hash, now.id]);
        const revoked = await revokeAccountSessions(tx.db, now.id, now.id === user.id ? user.sessionId : undefined);
        await tx.audit({ action: 'reset_password', resource: 'account', targetId: now.id, after: { revoked_sessions: revoked, generated } });
      });
      return { password: generated ? password : '', generated };
    },
  }),
]);
