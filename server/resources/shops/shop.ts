import { Type } from '@sinclair/typebox';
import type { Queryable } from '../../db/db.js';
import { route, type RouteDef } from '../../http/route.js';
import { invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { toPrefixQuery } from '../engine/list.js';
import { mustExist } from '../engine/refs.js';
import { ID, Id } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { AI_STATUS, AUTHORIZE_STATUS, CREATION_SOURCES, ENV_IDS, PLUGIN_STATUS, SHOP_TYPES, ids } from '../enums.js';
import { K, PICKERS } from '../keys.js';
import { ShopListReply, type ShopListItem } from '../../../src/contract/replies/shops.js';

/** The name of the customer (merchant user) `alias`.user_id points at: one home for the lists and the shop pickers. */
export const customerNameSql = (alias: string) => `(SELECT u.name FROM merchant_user u WHERE u.id = ${alias}.user_id)`;

/** a shop picker's row before its label (src/contract/replies/shops.ts) */
type ShopOption = Omit<ShopListItem, 'label'>;

/** Shops for a picker, newest first: a keyword (prefix match on name and link) and an environment (`all` or none: every one). */
export async function shopOptions(db: Queryable, q: { env?: string; keyword?: string; limit: number }): Promise<ShopOption[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (q.env && q.env !== 'all') where.push(`env = $${params.push(q.env)}`);
  const tsq = q.keyword ? toPrefixQuery(q.keyword) : null;
  if (tsq) where.push(`to_tsvector('simple', name || ' ' || link) @@ to_tsquery('simple', $${params.push(tsq)})`);
  const r = await db.query<ShopOption>(
    `SELECT id, name, env, type, ${customerNameSql('shop')} AS customer
       FROM shop${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ${Number(q.limit)}`,
    params,
  );
  return r.rows;
}

/** Shops of merchants (spec section 3: Shop, creation source, environments). */
export const shop: ResourceDef = {
  name: 'shop',
  table: 'shop',
  keyword: "to_tsvector('simple', t.name || ' ' || t.link)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(200, { required: true, sort: true }, 1),
    type: F.enumOf(ids(SHOP_TYPES), { required: true }),
    user_id: { schema: ID, nullable: true, filter: 'eq' },
    user_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: customerNameSql('t') },
    link: F.url(),
    plugin_status: F.enumOf(ids(PLUGIN_STATUS)),
    plugin_activated_at: F.dateTime({ nullable: true, sort: true }),
    is_test: F.bool(),
    is_ka: F.bool(),
    is_bpo: F.bool(),
    active: F.bool(),
    country_code: { schema: { type: 'string', pattern: '^[A-Z]{2}$' }, filter: 'eq' },
    ai_status: F.enumOf(ids(AI_STATUS)),
    authorize_status: F.enumOf(ids(AUTHORIZE_STATUS)),
    authorize_expires_at: F.dateTime({ nullable: true, sort: true }),
    creation_source: F.enumOf(ids(CREATION_SOURCES)),
    env: F.enumOf(ENV_IDS),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [K.shopList, K.voiceCustomerList] },
    detail: { permission: [K.shopList, K.voiceCustomerList] },
    create: { permission: [K.shopEdit, K.voiceCustomerListEdit] },
    update: { permission: [K.shopEdit, K.voiceCustomerListEdit] },
    // the spec has no delete key for shops: editing covers it (docs/business-api.md)
    delete: { permission: K.shopEdit },
  },
  batchDelete: true,
  dependents: [
    { table: 'shop_order', column: 'shop_id', label: { en: 'orders', zh: '订单' } },
    { table: 'plan_order', column: 'shop_id', label: { en: 'plan orders', zh: '套餐订单' } },
    { table: 'chat_session', column: 'shop_id', label: { en: 'chat sessions', zh: '聊天会话' } },
    { table: 'mail_session', column: 'shop_id', label: { en: 'mail sessions', zh: '邮件会话' } },
    { table: 'voice_session', column: 'shop_id', label: { en: 'voice sessions', zh: '语音会话' } },
    { table: 'policy', column: 'shop_id', label: { en: 'policies', zh: '政策' } },
    { table: 'learn_material', column: 'shop_id', label: { en: 'learning materials', zh: '学习素材' } },
    { table: 'douyin_product', column: 'shop_id', label: { en: 'Douyin products', zh: '抖音商品' } },
    { table: 'reply_template', column: 'shop_id', label: { en: 'templates', zh: '模板' } },
  ],
  validate: async (v, ctx) => mustExist(ctx.db, 'merchant_user', v.user_id, 'user_id'),
};

const shopListRoute = route({
  method: 'GET',
  path: 'shop-list',
  access: { permission: PICKERS },
  summary: 'Shops for pickers: env `all` or one environment; prod entries are labelled `id-name`',
  query: Type.Object(
    {
      env: Type.Optional(Type.String({ enum: ['all', ...ENV_IDS], default: 'all' })),
      keyword: Type.Optional(Type.String({ maxLength: 100 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 1000 })),
    },
    { additionalProperties: false },
  ),
  reply: ShopListReply,
  handler: async ({ db, query: q }) => {
    const rows = await shopOptions(db, { env: q.env, keyword: q.keyword, limit: q.limit ?? 1000 });
    return rows.map((s) => ({ ...s, label: s.env === 'prod' ? `${s.id}-${s.name}` : `[${s.env}] ${s.name}` }));
  },
});

const copyPolicyRoute = route({
  method: 'POST',
  path: 'policy/copy',
  access: { permission: K.copyPolicy },
  summary: 'Copy every policy of the source shop to the target shop (one transaction, cannot be undone)',
  body: Type.Object({ source_shop_id: Id, target_shop_id: Id }, { additionalProperties: false }),
  reply: Type.Object({ copied: Type.Integer(), target_shop_id: Type.Integer() }),
  handler: async (ctx) => {
    const { source_shop_id: src, target_shop_id: dst } = ctx.body;
    if (src === dst) {
      throw invalid([{ field: 'target_shop_id', message: 'source and target shop must differ / 源店铺与目标店铺不能相同' }]);
    }
    await mustExist(ctx.db, 'shop', src, 'source_shop_id');
    await mustExist(ctx.db, 'shop', dst, 'target_shop_id');
    const r = await ctx.db.query<{ id: number }>(
      `INSERT INTO policy (shop_id, title, content, source_type, channel, status)
       SELECT $2, title, content, source_type, channel, status FROM policy WHERE shop_id = $1 ORDER BY id RETURNING id`,
      [src, dst],
    );
    await ctx.audit({
      action: 'copy',
      resource: 'policy',
      targetId: dst,
      after: { source_shop_id: src, target_shop_id: dst, copied: r.rows.length, policy_ids: r.rows.map((x) => x.id) },
    });
    return { copied: r.rows.length, target_shop_id: dst };
  },
});

export const shopRoutes: RouteDef[] = [shopListRoute, copyPolicyRoute];
