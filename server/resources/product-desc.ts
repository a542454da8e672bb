import type { RouteContext, RouteDef } from '../http/route.js';
import { conflict } from '../http/errors.js';
import { F } from './engine/fields.js';
import { mustFind, updateRow } from './engine/routes.js';
import { ID, rowSchema } from './engine/schemas.js';
import type { ResourceDef } from './engine/types.js';
import { DESC_STATUS, ids } from './enums.js';
import { K } from './keys.js';

/** Product descriptions the AI identified from shop products (learn/productKnowledge). */
export const productDesc: ResourceDef = {
  name: 'shop-product-desc',
  auditName: 'product_desc',
  table: 'product_desc',
  keyword: "to_tsvector('simple', t.title)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), readOnly: true },
    shop_name: F.shopName(),
    product_id: { schema: { type: 'string', maxLength: 60 }, readOnly: true, filter: 'eq' },
    title: { schema: { type: 'string', maxLength: 300 }, readOnly: true },
    description: { schema: { type: 'string', maxLength: 20000 }, readOnly: true, detailOnly: true },
    identified_desc: F.text(20000),
    status: { ...F.enumOf(ids(DESC_STATUS)), readOnly: true },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: { list: { permission: K.productKnowledge } },
};

const body = (props: Record<string, unknown>, required: string[]) => ({ type: 'object', additionalProperties: false, required, properties: props });

productDesc.actions = [
  {
    method: 'POST',
    path: 'shop-product-desc/edit',
    access: { permission: K.productKnowledge },
    summary: 'Correct the identified description by hand (status becomes identified)',
    reply: rowSchema(productDesc),
    body: body({ id: ID, identified_desc: { type: 'string', minLength: 1, maxLength: 20000 } }, ['id', 'identified_desc']),
    handler: async (ctx) => {
      const b = ctx.body as { id: number; identified_desc: string };
      const before = await mustFind(productDesc, ctx as RouteContext, b.id);
      await ctx.db.query(`UPDATE product_desc SET status = 2 WHERE id = $1`, [b.id]);
      return updateRow(productDesc, ctx as RouteContext, b.id, { identified_desc: b.identified_desc }, before, 'edit');
    },
  },
  {
    method: 'POST',
    path: 'shop-product-desc/reidentify',
    access: { permission: K.productKnowledge },
    summary: 'Queue the description for identification again (status back to pending)',
    reply: rowSchema(productDesc),
    body: body({ id: ID }, ['id']),
    handler: async (ctx) => {
      const { id } = ctx.body as { id: number };
      const before = await mustFind(productDesc, ctx as RouteContext, id);
      if (before.status === 1) throw conflict('identification is already running');
      await ctx.db.query(`UPDATE product_desc SET status = 0 WHERE id = $1`, [id]);
      return updateRow(productDesc, ctx as RouteContext, id, {}, before, 'reidentify');
    },
  },
] satisfies RouteDef[];
