import { Type } from '@sinclair/typebox';
import type { Queryable } from '../db/db.js';
import { assertMayEditPermissionTree } from '../auth/ceiling.js';
import { Keys } from '../auth/guards.js';
import { conflict, notFound } from '../http/errors.js';
import { pageFields, pageReply, paged } from '../http/list.js';
import { defineRoutes, route } from '../http/route.js';
import { PermissionType } from '../../src/contract/permission-manifest.js';
import { NoReply } from '../http/typebox.js';
import {
  PermissionNodesReply,
  PermissionItemReply,
  type PermissionItem,
  type PermissionTreeNode,
} from '../../src/contract/replies/permissions.js';

/** permission_type by number (1 menu, 2 page, 3 button, 4 module) or, the spec's second reading, by name */
const TYPE_NAMES = { menu: PermissionType.MENU, page: PermissionType.PAGE, button: PermissionType.BUTTON, module: PermissionType.MODULE } as const;
type TypeName = keyof typeof TYPE_NAMES;
const typeNameSql = `CASE permission_type ${Object.entries(TYPE_NAMES)
  .map(([n, v]) => `WHEN ${v} THEN '${n}'`)
  .join(' ')} END AS permission_type_name`;
/** a type given by name or number → its number (undefined stays undefined) */
const typeNumber = <T extends number | TypeName | undefined>(t: T): T extends undefined ? undefined : number =>
  (typeof t === 'string' ? TYPE_NAMES[t] : t) as T extends undefined ? undefined : number;
const PermissionTypeIn = Type.Union([Type.Integer({ enum: [1, 2, 3, 4] }), Type.Union(Object.keys(TYPE_NAMES).map((n) => Type.Literal(n as TypeName)))], {
  description: '1 menu, 2 page, 3 button, 4 module — or the name: menu, page, button, module',
});

const COLS = `id, pid, module, permission_key, permission_name, permission_name_en, permission_type, ${typeNameSql}, frontend_route, sort`;
/** body fields (TypeBox: the handlers get their types from these, route() in server/http/route.ts) */
const editable = {
  pid: Type.Integer({ minimum: 0 }),
  module: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z_]+$' }),
  permission_key: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.-]+$' }),
  permission_name: Type.String({ minLength: 1, maxLength: 100 }),
  permission_name_en: Type.String({ maxLength: 100 }),
  permission_type: PermissionTypeIn,
  frontend_route: Type.String({ maxLength: 300 }),
  sort: Type.Integer(),
};
const id = Type.Integer({ minimum: 1 });

async function load(q: Queryable, id: number): Promise<PermissionItem> {
  const r = await q.query<PermissionItem>(`SELECT ${COLS} FROM permissions WHERE id = $1`, [id]);
  if (!r.rows[0]) throw notFound(`permission ${id}`);
  return r.rows[0];
}

export function buildTree(rows: PermissionItem[]): PermissionTreeNode[] {
  const nodes = new Map<number, PermissionTreeNode>(rows.map((r) => [r.id, { ...r, children_recursive: [] }]));
  const roots: PermissionTreeNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.pid ? nodes.get(n.pid) : undefined;
    if (parent) parent.children_recursive.push(n);
    else roots.push(n);
  }
  return roots;
}

async function assertParent(q: Queryable, pid: number | undefined) {
  if (pid) await load(q, pid);
}

async function keyTaken(q: Queryable, module: string, key: string, exceptId = 0) {
  const r = await q.query('SELECT 1 FROM permissions WHERE module = $1 AND permission_key = $2 AND id <> $3', [module, key, exceptId]);
  return r.rows.length > 0;
}

export const routes = defineRoutes([
  route({
    method: 'GET',
    path: 'permission/list',
    access: { permission: Keys.permission },
    summary: 'Permissions, paged; filter by module, type, parent, keyword',
    query: Type.Object({
      ...pageFields,
      module: Type.Optional(Type.String({ maxLength: 64 })),
      permission_type: Type.Optional(PermissionTypeIn),
      pid: Type.Optional(Type.Integer({ minimum: 0 })),
      keyword: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    reply: pageReply(PermissionItemReply),
    handler: (ctx) =>
      paged<PermissionItem>(
        ctx.db,
        {
          select: COLS,
          fromWhere: `FROM permissions WHERE ($1::text IS NULL OR module = $1::text)
            AND ($2::int IS NULL OR permission_type = $2::int) AND ($3::int IS NULL OR pid = $3::int)
            AND ($4::text IS NULL OR permission_key ILIKE '%' || $4::text || '%' OR permission_name ILIKE '%' || $4::text || '%'
                 OR permission_name_en ILIKE '%' || $4::text || '%')`,
          orderBy: 'sort, id',
          params: [ctx.query.module || null, typeNumber(ctx.query.permission_type) ?? null, ctx.query.pid ?? null, ctx.query.keyword?.trim() || null],
        },
        ctx.query,
      ),
  }),
  route({
    method: 'GET',
    path: 'permission/tree',
    access: { permission: [Keys.permission, Keys.role, Keys.roleCreate, Keys.roleUpdate, Keys.roleDetail] },
    summary: 'The permission tree (module entries at the root, children in children_recursive)',
    query: Type.Object({ module: Type.Optional(Type.String({ maxLength: 64 })) }),
    reply: PermissionNodesReply,
    async handler(ctx) {
      const r = await ctx.db.query<PermissionItem>(
        `SELECT ${COLS} FROM permissions WHERE ($1::text IS NULL OR module = $1::text) ORDER BY sort, id`,
        [ctx.query.module || null],
      );
      return buildTree(r.rows);
    },
  }),
  route({
    method: 'POST',
    path: 'permission/create',
    access: { permission: Keys.permissionCreate },
    summary: 'Create a permission (super admin only: the permission tree is theirs)',
    body: Type.Object({
      pid: Type.Optional(editable.pid),
      module: editable.module,
      permission_key: editable.permission_key,
      permission_name: editable.permission_name,
      permission_name_en: Type.Optional(editable.permission_name_en),
      permission_type: editable.permission_type,
      frontend_route: Type.Optional(editable.frontend_route),
      sort: Type.Optional(editable.sort),
    }),
    reply: PermissionItemReply,
    async handler(ctx) {
      assertMayEditPermissionTree(ctx.user!);
      const b = ctx.body;
      await assertParent(ctx.db, b.pid);
      if (await keyTaken(ctx.db, b.module, b.permission_key)) throw conflict(`permission ${b.module}.${b.permission_key} already exists / 权限 ${b.module}.${b.permission_key} 已存在`);
      const r = await ctx.db.query<PermissionItem>(
        `INSERT INTO permissions (pid, module, permission_key, permission_name, permission_name_en, permission_type, frontend_route, sort)
         VALUES ($1, $2, $3, $4, $5, $6, $7, COALESCE($8::int, (SELECT COALESCE(max(sort), 0) + 1 FROM permissions))) RETURNING ${COLS}`,
        [b.pid ?? 0, b.module, b.permission_key, b.permission_name, b.permission_name_en ?? '', typeNumber(b.permission_type), b.frontend_route ?? '', b.sort ?? null],
      );
      const after = r.rows[0];
      await ctx.audit({ action: 'create', resource: 'permission', targetId: after.id, before: null, after });
      return after;
    },
  }),
  route({
    method: 'POST',
    path: 'permission/update',
    access: { permission: Keys.permissionUpdate },
    summary: 'Update a permission (fields given are changed; super admin only)',
    body: Type.Object({
      id,
      pid: Type.Optional(editable.pid),
      module: Type.Optional(editable.module),
      permission_key: Type.Optional(editable.permission_key),
      permission_name: Type.Optional(editable.permission_name),
      permission_name_en: Type.Optional(editable.permission_name_en),
      permission_type: Type.Optional(editable.permission_type),
      frontend_route: Type.Optional(editable.frontend_route),
      sort: Type.Optional(editable.sort),
    }),
    reply: PermissionItemReply,
    async handler(ctx) {
      assertMayEditPermissionTree(ctx.user!);
      const before = await load(ctx.db, ctx.body.id);
      const next = { ...before, ...ctx.body, permission_type: typeNumber(ctx.body.permission_type) ?? before.permission_type };
      if (next.pid === before.id) throw conflict('a permission cannot be its own parent / 权限不能以自己为父级');
      if (next.pid !== before.pid) await assertParent(ctx.db, next.pid);
      if ((next.module !== before.module || next.permission_key !== before.permission_key) && (await keyTaken(ctx.db, next.module, next.permission_key, before.id))) {
        throw conflict(`permission ${next.module}.${next.permission_key} already exists / 权限 ${next.module}.${next.permission_key} 已存在`);
      }
      const r = await ctx.db.query<PermissionItem>(
        `UPDATE permissions SET pid = $1, module = $2, permission_key = $3, permission_name = $4, permission_name_en = $5,
           permission_type = $6, frontend_route = $7, sort = $8, updated_at = now() WHERE id = $9 RETURNING ${COLS}`,
        [next.pid, next.module, next.permission_key, next.permission_name, next.permission_name_en, next.permission_type, next.frontend_route, next.sort, before.id],
      );
      await ctx.audit({ action: 'update', resource: 'permission', targetId: before.id, before, after: r.rows[0] });
      return r.rows[0];
    },
  }),
  route({
    method: 'POST',
    path: 'permission/delete',
    access: { permission: Keys.permissionDelete },
    summary: 'Delete a permission without children (roles lose it; super admin only)',
    body: Type.Object({ id }),
    reply: NoReply,
    async handler(ctx) {
      assertMayEditPermissionTree(ctx.user!);
      const before = await load(ctx.db, ctx.body.id);
      const kids = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM permissions WHERE pid = $1', [before.id]);
      if (kids.rows[0].n > 0) throw conflict(`permission ${before.module}.${before.permission_key} has ${kids.rows[0].n} child permission(s); delete them first / 该权限下还有 ${kids.rows[0].n} 个子权限，请先删除`);
      await ctx.db.query('DELETE FROM permissions WHERE id = $1', [before.id]);
      await ctx.audit({ action: 'delete', resource: 'permission', targetId: before.id, before, after: null });
      return null;
    },
  }),
]);
