import { Type } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { conflict } from '../../http/errors.js';
import { Nullable } from '../../http/typebox.js';
import { F } from '../engine/fields.js';
import { mustExist } from '../engine/refs.js';
import { mustFind, updateRow } from '../engine/routes.js';
import { Id, rowSchema } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { K } from '../keys.js';
import { importRoute } from './douyin-import.js';

const PERM = [K.productKnowledge, K.policyImport];

/** Products of Douyin shops with the policy (after-sales / shipping knowledge) the AI uses for them. */
export const douyinProduct: ResourceDef = {
  name: 'shop/douyin-shop-policy-product',
  auditName: 'douyin_product',
  table: 'douyin_product',
  keyword: "to_tsvector('simple', t.title)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: F.shopId({ createOnly: true }),
    shop_name: F.shopName(),
    product_id: { schema: { type: 'string', minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9_-]+$' }, required: true, createOnly: true, filter: 'eq' },
    title: F.str(300, { required: true }, 1),
    price: F.money({ select: 't.price::float8' }),
    policy: F.text(20000, { detailOnly: true }),
    remark: F.str(1000),
    status: F.enumOf([0, 1]),
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
  batchDelete: true,
  validate: async (v, ctx, mode) => {
    if (mode !== 'create') return;
    await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    const r = await ctx.db.query(`SELECT id FROM douyin_product WHERE shop_id = $1 AND product_id = $2`, [v.shop_id, v.product_id]);
    if (r.rows.length) throw conflict(`product ${String(v.product_id)} already exists in this shop / 该店铺已有商品 ${String(v.product_id)}`);
  },
};

douyinProduct.actions = [
  importRoute(douyinProduct, PERM),
  route({
    method: 'POST',
    path: 'shop/douyin-shop-policy-product/update-remark',
    summary: 'Set the remark of a product',
    reply: rowSchema(douyinProduct),
    access: { permission: PERM },
    body: Type.Object({ id: Id, remark: Type.String({ maxLength: 1000 }) }, { additionalProperties: false }),
    handler: async (ctx) => {
      const b = ctx.body;
      const before = await mustFind(douyinProduct, ctx, b.id);
      return updateRow(douyinProduct, ctx, b.id, { remark: b.remark }, before, 'update_remark');
    },
  }),
  route({
    method: 'POST',
    path: 'shop/douyin-shop-policy-product/check-product-exists',
    access: { permission: PERM },
    summary: 'Whether a product id is already registered for the shop',
    body: Type.Object({ shop_id: Id, product_id: Type.String({ minLength: 1, maxLength: 60 }) }, { additionalProperties: false }),
    reply: Type.Object({ exists: Type.Boolean(), id: Nullable(Type.Integer()) }),
    handler: async (ctx) => {
      const b = ctx.body;
      const r = await ctx.db.query<{ id: number }>(`SELECT id FROM douyin_product WHERE shop_id = $1 AND product_id = $2`, [b.shop_id, b.product_id]);
      return { exists: r.rows.length > 0, id: r.rows[0]?.id ?? null };
    },
  }),
] satisfies RouteDef[];
