import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { notFound } from '../../http/errors.js';
import { Nullable } from '../../http/typebox.js';
import { MAIL_ACCOUNT_PAGE_SIZE, USER_SEARCH_LIMIT } from '../../../src/contract/codes.js';
import { F } from '../engine/fields.js';
import { idQuery, rowSchema } from '../engine/schemas.js';
import { listRows } from '../engine/list.js';
import type { ResourceDef } from '../engine/types.js';
import { K, PICKERS } from '../keys.js';
import { pageReply } from '../../http/list.js';

/** Merchant users: the business's customers, each owning shops (customer list pages). */
export const customer: ResourceDef = {
  name: 'customer',
  auditName: 'merchant_user',
  table: 'merchant_user',
  keyword: "to_tsvector('simple', t.name || ' ' || t.email)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    email: F.email({ required: true, filter: 'ci' }),
    phone: F.str(40, { nullable: true }),
    country_code: { schema: { type: 'string', pattern: '^[A-Z]{2}$' }, filter: 'eq' },
    status: F.enumOf([0, 1]),
    shop_count: { schema: { type: 'integer' }, virtual: true, select: '(SELECT count(*)::int FROM shop s WHERE s.user_id = t.id)' },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [K.customerList, K.voiceCustomers] },
    detail: { permission: [K.customerList, K.voiceCustomers] },
    create: { permission: [K.customerList, K.voiceCustomers] },
    update: { permission: [K.customerList, K.voiceCustomers] },
    delete: { permission: [K.customerList, K.voiceCustomers] },
  },
  batchDelete: true,
  dependents: [
    { table: 'shop', column: 'user_id', label: { en: 'shops', zh: '店铺' } },
    { table: 'plan_order', column: 'user_id', label: { en: 'plan orders', zh: '套餐订单' } },
  ],
};

/** Mail accounts of shops (`shop/mail-account/list`, page_size up to 1000). */
export const mailAccount: ResourceDef = {
  name: 'shop/mail-account',
  auditName: 'mail_account',
  table: 'mail_account',
  defaultSort: { field: 'id', order: 'asc' },
  maxPageSize: MAIL_ACCOUNT_PAGE_SIZE,
  fields: {
    id: F.id(),
    shop_id: F.shopId(),
    shop_name: F.shopName(),
    email: F.email({ required: true, filter: 'ci' }),
    created_at: F.createdAt(),
  },
  operations: { list: { permission: PICKERS } },
};

const int = Type.Integer();
const str = Type.String();
const userBrief = Type.Object({ id: int, name: str, email: str, country_code: str, status: int });
const shopBrief = Type.Object({
  id: int,
  name: str,
  type: int,
  env: str,
  link: str,
  active: Type.Boolean(),
  mail_accounts: Type.Array(Type.Object({ id: int, email: str })),
});
const userInfo = Type.Object({ ...userBrief.properties, phone: Nullable(str), created_at: Type.String({ format: 'date-time' }), shops: Type.Array(shopBrief) });

async function shopsOf(db: import('../../db/db.js').Queryable, userId: number) {
  const r = await db.query<Static<typeof shopBrief>>(
    `SELECT s.id, s.name, s.type, s.env, s.link, s.active,
            coalesce((SELECT json_agg(json_build_object('id', m.id, 'email', m.email) ORDER BY m.id) FROM mail_account m WHERE m.shop_id = s.id), '[]'::json) AS mail_accounts
       FROM shop s WHERE s.user_id = $1 ORDER BY s.id`,
    [userId],
  );
  return r.rows;
}

/** the picker's list: the same declaration with a larger page allowed */
const customerPicker: ResourceDef = { ...customer, maxPageSize: 1000 };

export const merchantRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: 'users',
    access: { permission: PICKERS },
    summary: 'Merchant users for pickers (paged, keyword over name / email / id)',
    query: Type.Object(
      {
        page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
        page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
        keyword: Type.Optional(Type.String({ maxLength: 100 })),
      },
      { additionalProperties: false },
    ),
    reply: pageReply(rowSchema(customerPicker, true)),
    handler: ({ db, query }) => listRows(customerPicker, db, query),
  }),
  route({
    method: 'GET',
    path: 'user/info',
    access: { permission: [K.customerList, K.voiceCustomers, K.planOrder, K.voicePlanOrder] },
    summary: 'One merchant user with their shops and mail accounts',
    query: idQuery,
    reply: userInfo,
    handler: async ({ db, query: { id } }) => {
      const r = await db.query<Omit<Static<typeof userInfo>, 'shops'>>(`SELECT id, name, email, phone, country_code, status, created_at FROM merchant_user WHERE id = $1`, [id]);
      if (!r.rows[0]) throw notFound('user');
      return { ...r.rows[0], shops: await shopsOf(db, id) };
    },
  }),
  route({
    method: 'GET',
    path: 'user/search-by-id',
    access: { permission: PICKERS },
    summary: 'Merchant users whose id starts with the given digits (at most `limit`, default and maximum 100)',
    query: Type.Object(
      {
        id: Type.String({ pattern: '^\\d{1,10}$' }),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: USER_SEARCH_LIMIT, default: USER_SEARCH_LIMIT })),
      },
      { additionalProperties: false },
    ),
    reply: Type.Array(userBrief),
    handler: async ({ db, query: q }) => {
      // exact id first, then ids with that prefix (id range scans on the primary key, no seq scan)
      const n = Number(q.id);
      const limit = Number(q.limit ?? USER_SEARCH_LIMIT);
      const ranges: string[] = ['id = $1'];
      for (let scale = 10, k = 1; k <= 9 - q.id.length && n * scale < 2147483647; scale *= 10, k++) {
        ranges.push(`(id >= ${n * scale} AND id < ${Math.min((n + 1) * scale, 2147483647)})`);
      }
      const r = await db.query<Static<typeof userBrief>>(
        `SELECT id, name, email, country_code, status FROM merchant_user WHERE ${ranges.join(' OR ')} ORDER BY id LIMIT ${limit}`,
        [n],
      );
      return r.rows;
    },
  }),
  route({
    method: 'GET',
    path: 'user/shop-mail-list',
    access: { permission: PICKERS },
    summary: "A merchant user's shops, each with its mail accounts",
    query: idQuery,
    reply: Type.Array(shopBrief),
    handler: async ({ db, query: { id } }) => {
      const r = await db.query(`SELECT 1 FROM merchant_user WHERE id = $1`, [id]);
      if (!r.rows.length) throw notFound('user');
      return shopsOf(db, id);
    },
  }),
];
