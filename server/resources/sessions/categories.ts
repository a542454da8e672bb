import { invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { mustExist } from '../engine/refs.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from './keys.js';

const PERM = [SK.category, SK.voiceCategory];

/** Session category groups (shop/sessionCategory): a shop's (or the global, no shop) groups. */
export const categoryGroup: ResourceDef = {
  name: 'session-category/group',
  auditName: 'session_category_group',
  table: 'session_category_group',
  keyword: "to_tsvector('simple', t.name)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), required: false, nullable: true },
    shop_name: F.shopName(),
    name: F.str(100, { required: true, sort: true }, 1),
    sort: F.int(0, 9999),
    remark: F.str(500),
    item_count: {
      schema: { type: 'integer' },
      virtual: true,
      select: '(SELECT count(*)::int FROM session_category_item i WHERE i.group_id = t.id)',
    },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: PERM },
    detail: { permission: PERM },
    create: { permission: PERM },
    update: { permission: PERM },
    delete: { permission: PERM },
  },
  validate: async (v, ctx) => mustExist(ctx.db, 'shop', v.shop_id, 'shop_id'),
};

/** The items of a group: name, keywords that classify a session into it, description. */
export const categoryItem: ResourceDef = {
  name: 'session-category/item',
  auditName: 'session_category_item',
  table: 'session_category_item',
  keyword: "to_tsvector('simple', t.name || ' ' || t.keywords)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    group_id: { schema: ID, required: true, filter: 'eq' },
    group_name: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT g.name FROM session_category_group g WHERE g.id = t.group_id)',
    },
    name: F.str(100, { required: true, sort: true }, 1),
    keywords: F.str(500),
    description: F.str(1000),
    sort: F.int(0, 9999),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: PERM },
    detail: { permission: PERM },
    create: { permission: PERM },
    update: { permission: PERM },
    delete: { permission: PERM },
  },
  validate: async (v, ctx) => {
    if (v.group_id === undefined) return;
    const r = await ctx.db.query(`SELECT 1 FROM session_category_group WHERE id = $1`, [v.group_id]);
    if (!r.rows.length) throw invalid([{ field: 'group_id', message: `group ${String(v.group_id)} does not exist / 分类组不存在` }]);
  },
};
