import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '../db/db.js';
import { assertMayGrantPermissions, assertMayManageRole, assertMayRemovePermissions } from '../auth/ceiling.js';
import { Keys, assertIdsExist, assertSuperAdminRemains } from '../auth/guards.js';
import { conflict, notFound } from '../http/errors.js';
import { pageFields, pageReply, paged } from '../http/list.js';
import { defineRoutes, route } from '../http/route.js';
import { NoReply } from '../http/typebox.js';
import { RoleRef } from '../../src/contract/replies/session.js';

const ts = Type.String({ format: 'date-time' });
const RoleRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  is_super_admin: Type.Boolean(),
  permission_ids: Type.Array(Type.Integer()),
  account_count: Type.Integer(),
  created_at: ts,
  updated_at: ts,
});
type RoleRow = Static<typeof RoleRow>;
const id = Type.Integer({ minimum: 1 });
const idBody = Type.Object({ id });
/** body fields (TypeBox: the handlers get their types from these, route() in server/http/route.ts) */
const roleFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  is_super_admin: Type.Boolean(),
  permission_ids: Type.Array(Type.Integer(), { uniqueItems: true, maxItems: 5000 }),
};

const ROLE_SELECT = `r.id, r.name, r.is_super_admin, r.created_at, r.updated_at,
  COALESCE((SELECT array_agg(rp.permission_id ORDER BY rp.permission_id) FROM role_permissions rp WHERE rp.role_id = r.id), '{}') AS permission_ids,
  (SELECT count(*)::int FROM account_roles ar WHERE ar.role_id = r.id) AS account_count`;

export async function loadRole(q: Queryable, id: number) {
  const r = await q.query<RoleRow>(
    `SELECT ${ROLE_SELECT} FROM roles r WHERE r.id = $1`,
    [id],
  );
  if (!r.rows[0]) throw notFound(`role ${id}`);
  return r.rows[0];
}

async function setPermissions(q: Queryable, roleId: number, ids: number[]) {
  await q.query('DELETE FROM role_permissions WHERE role_id = $1', [roleId]);
  if (ids.length > 0) {
    await q.query('INSERT INTO role_permissions (role_id, permission_id) SELECT $1, unnest($2::int[])', [roleId, ids]);
  }
}

async function nameTaken(q: Queryable, name: string, exceptId = 0) {
  const r = await q.query('SELECT 1 FROM roles WHERE lower(name) = lower($1) AND id <> $2', [name, exceptId]);
  return r.rows.length > 0;
}

/** Comparable view for the audit row. */
const view = (r: { id: number; name: string; is_super_admin: boolean; permission_ids: number[] }) => ({
  id: r.id,
  name: r.name,
  is_super_admin: r.is_super_admin,
  permission_ids: r.permission_ids,
});

export const routes = defineRoutes([
  route({
    method: 'GET',
    path: 'role/list',
    access: { permission: Keys.role },
    summary: 'Roles, paged; filter by name',
    query: Type.Object({ ...pageFields, name: Type.Optional(Type.String({ maxLength: 100 })) }),
    reply: pageReply(RoleRow),
    handler: (ctx) =>
      paged<RoleRow>(
        ctx.db,
        {
          select: ROLE_SELECT,
          fromWhere: `FROM roles r WHERE ($1::text IS NULL OR r.name ILIKE '%' || $1::text || '%')`,
          orderBy: 'r.id',
          params: [ctx.query.name?.trim() || null],
        },
        ctx.query,
      ),
  }),
  route({
    method: 'GET',
    path: 'role/all',
    access: { permission: [Keys.role, Keys.account] },
    summary: 'Every role (id, name, is_super_admin), for pickers',
    reply: Type.Array(RoleRef),
    async handler(ctx) {
      const r = await ctx.db.query<Static<typeof RoleRef>>('SELECT id, name, is_super_admin FROM roles ORDER BY id');
      return r.rows;
    },
  }),
  route({
    method: 'GET',
    path: 'role/detail',
    access: { permission: [Keys.role, Keys.roleDetail, Keys.roleUpdate] },
    summary: 'One role with its permission ids',
    query: idBody,
    reply: RoleRow,
    handler: (ctx) => loadRole(ctx.db, ctx.query.id),
  }),
  route({
    method: 'POST',
    path: 'role/create',
    access: { permission: Keys.roleCreate },
    summary: 'Create a role',
    body: Type.Object({
      name: roleFields.name,
      is_super_admin: Type.Optional(roleFields.is_super_admin),
      permission_ids: Type.Optional(roleFields.permission_ids),
    }),
    reply: RoleRow,
    async handler(ctx) {
      const name = ctx.body.name.trim();
      const ids = ctx.body.permission_ids ?? [];
      assertMayManageRole(ctx.user!, { is_super_admin: ctx.body.is_super_admin });
      await assertMayGrantPermissions(ctx.db, ctx.user!, ids);
      await assertIdsExist(ctx.db, 'permissions', ids, 'permission');
      if (await nameTaken(ctx.db, name)) throw conflict(`a role named "${name}" already exists / 角色“${name}”已存在`);
      const r = await ctx.db.query<{ id: number }>('INSERT INTO roles (name, is_super_admin) VALUES ($1, $2) RETURNING id', [
        name,
        ctx.body.is_super_admin ?? false,
      ]);
      await setPermissions(ctx.db, r.rows[0].id, ids);
      const after = await loadRole(ctx.db, r.rows[0].id);
      await ctx.audit({ action: 'create', resource: 'role', targetId: after.id, before: null, after: view(after) });
      return after;
    },
  }),
  route({
    method: 'POST',
    path: 'role/update',
    access: { permission: Keys.roleUpdate },
    summary: 'Update a role (fields given are changed)',
    body: Type.Object({
      id,
      name: Type.Optional(roleFields.name),
      is_super_admin: Type.Optional(roleFields.is_super_admin),
      permission_ids: Type.Optional(roleFields.permission_ids),
    }),
    reply: RoleRow,
    async handler(ctx) {
      const before = await loadRole(ctx.db, ctx.body.id);
      const user = ctx.user!;
      assertMayManageRole(user, before);
      assertMayManageRole(user, { is_super_admin: ctx.body.is_super_admin });
      if (ctx.body.permission_ids) {
        const added = ctx.body.permission_ids.filter((id) => !before.permission_ids.includes(id));
        await assertMayGrantPermissions(ctx.db, user, added);
        const removed = before.permission_ids.filter((id) => !ctx.body.permission_ids!.includes(id));
        await assertMayRemovePermissions(ctx.db, user, removed);
        await assertIdsExist(ctx.db, 'permissions', ctx.body.permission_ids, 'permission');
      }
      const name = ctx.body.name?.trim() ?? before.name;
      if (name !== before.name && (await nameTaken(ctx.db, name, before.id))) throw conflict(`a role named "${name}" already exists / 角色“${name}”已存在`);
      await ctx.db.query('UPDATE roles SET name = $1, is_super_admin = $2, updated_at = now() WHERE id = $3', [
        name,
        ctx.body.is_super_admin ?? before.is_super_admin,
        before.id,
      ]);
      if (ctx.body.permission_ids) await setPermissions(ctx.db, before.id, ctx.body.permission_ids);
      if (before.is_super_admin) await assertSuperAdminRemains(ctx.db);
      const after = await loadRole(ctx.db, before.id);
      await ctx.audit({ action: 'update', resource: 'role', targetId: before.id, before: view(before), after: view(after) });
      return after;
    },
  }),
  route({
    method: 'POST',
    path: 'role/delete',
    access: { permission: Keys.roleDelete },
    summary: 'Delete a role that no account holds',
    body: idBody,
    reply: NoReply,
    async handler(ctx) {
      const before = await loadRole(ctx.db, ctx.body.id);
      assertMayManageRole(ctx.user!, before);
      const held = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM account_roles WHERE role_id = $1', [before.id]);
      if (held.rows[0].n > 0) throw conflict(`role "${before.name}" is still assigned to ${held.rows[0].n} account(s) / 角色“${before.name}”仍分配给 ${held.rows[0].n} 个账号`);
      await ctx.db.query('DELETE FROM roles WHERE id = $1', [before.id]);
      await ctx.audit({ action: 'delete', resource: 'role', targetId: before.id, before: view(before), after: null });
      return null;
    },
  }),
]);
