/**
 * Lab-side accounts: the experiment lab application's own roles and users. They are records the
 * console manages, not console accounts (they cannot sign in here). See docs/modules/lab.md.
 */
import { conflict, invalid } from '../../http/errors.js';
import { Type } from '@sinclair/typebox';
import { route } from '../../http/route.js';
import { NoQuery, OptionList } from '../../http/typebox.js';
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { mustExistIn } from './common.js';
import { deleteRoute } from '../engine/routes.js';
import { LK } from './keys.js';

/** What a lab role may do inside the lab application. */
export const LAB_SCOPES = ['train', 'dataset', 'content', 'comment', 'admin'] as const;

export const labRole: ResourceDef = {
  name: 'lab/role',
  auditName: 'lab_role',
  table: 'lab_role',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'asc' },
  fields: {
    id: F.id(),
    name: F.str(60, { required: true, sort: true }, 1),
    description: F.str(500),
    scopes: { schema: { type: 'array', uniqueItems: true, maxItems: LAB_SCOPES.length, items: { type: 'string', enum: [...LAB_SCOPES] } } },
    status: F.enumOf([0, 1]),
    user_count: { schema: { type: 'integer' }, virtual: true, select: '(SELECT count(*)::int FROM lab_user u WHERE u.role_id = t.id)' },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: LK.labRole },
    detail: { permission: LK.labRole },
    create: { permission: LK.labRole },
    update: { permission: LK.labRole },
  },
  validate: async (v, ctx, _mode, before) => {
    if (typeof v.name !== 'string' || v.name === before?.name) return;
    const r = await ctx.db.query('SELECT 1 FROM lab_role WHERE name = $1', [v.name]);
    if (r.rows.length) throw invalid([{ field: 'name', message: `role ${v.name} already exists / 角色名已存在` }]);
  },
};
labRole.actions = [
  deleteRoute(labRole, LK.labRole, async (row, ctx) => {
    const r = await ctx.db.query('SELECT 1 FROM lab_user WHERE role_id = $1 LIMIT 1', [row.id]);
    if (r.rows.length) throw conflict('the role still has users / 该角色下仍有用户，不能删除');
  }),
];

/** All lab roles for the user form's picker. */
export const labRoleAllRoute = route({
  method: 'GET',
  path: 'lab/role/all',
  access: { permission: [LK.labRole, LK.labUser] },
  summary: 'Every lab role: [{ id, name, status }]',
  query: NoQuery,
  reply: OptionList({ status: Type.Integer() }),
  handler: async ({ db }) => (await db.query<{ id: number; name: string; status: number }>('SELECT id, name, status FROM lab_role ORDER BY id')).rows,
});

export const labUser: ResourceDef = {
  name: 'lab/user',
  auditName: 'lab_user',
  table: 'lab_user',
  keyword: "to_tsvector('simple', t.name || ' ' || t.email)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    email: F.email({ required: true, filter: 'ci' }),
    role_id: { schema: ID, nullable: true, filter: 'eq' },
    role_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT r.name FROM lab_role r WHERE r.id = t.role_id)' },
    status: F.enumOf([0, 1]),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: LK.labUser },
    detail: { permission: LK.labUser },
    create: { permission: LK.labUser },
    update: { permission: LK.labUser },
    delete: { permission: LK.labUser },
  },
  validate: async (v, ctx, _mode, before) => {
    await mustExistIn(ctx, 'lab_role', v.role_id, 'role_id');
    if (typeof v.email !== 'string' || v.email.toLowerCase() === String(before?.email ?? '').toLowerCase()) return;
    const r = await ctx.db.query('SELECT 1 FROM lab_user WHERE lower(email) = lower($1)', [v.email]);
    if (r.rows.length) throw invalid([{ field: 'email', message: `a lab user with ${v.email} exists / 该邮箱已存在` }]);
  },
};
