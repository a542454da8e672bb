import { Type } from '@sinclair/typebox';
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { listRows } from '../engine/list.js';
import { mustExist } from '../engine/refs.js';
import { ID, Id, rowSchema } from '../engine/schemas.js';
import type { ResourceDef, Row } from '../engine/types.js';
import { CURRENCIES, PLAN_ORDER_STATUS, ids } from '../enums.js';
import { K } from '../keys.js';
import { pageReply } from '../../http/list.js';
import { customerNameSql } from './shop.js';

/** Plan orders: a merchant user buying a plan (optionally for one shop), with a change log. */
export const planOrder: ResourceDef = {
  name: 'plan-order',
  auditName: 'plan_order',
  table: 'plan_order',
  keywordIds: ['id', 'user_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    order_no: { schema: { type: 'string', maxLength: 40 }, readOnly: true, filter: 'eq' },
    user_id: { schema: ID, filter: 'eq', required: true },
    user_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: customerNameSql('t') },
    shop_id: { schema: ID, nullable: true, filter: 'eq' },
    shop_name: F.shopName(),
    plan_id: { schema: ID, filter: 'eq', required: true },
    plan_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT p.name FROM plan p WHERE p.id = t.plan_id)' },
    amount: F.money({ select: 't.amount::float8', required: true }),
    currency: F.enumOf(CURRENCIES),
    status: F.enumOf(ids(PLAN_ORDER_STATUS)),
    start_at: F.dateTime({ required: true, sort: true }),
    end_at: F.dateTime({ required: true, sort: true }),
    remark: F.str(500),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [K.planOrder, K.voicePlanOrder] },
    detail: { permission: [K.planOrder, K.voicePlanOrder] },
    create: { permission: [K.planOrderCreate, K.voicePlanOrder] },
    update: { permission: [K.planOrderUpdate, K.voicePlanOrder] },
    delete: { permission: [K.planOrderUpdate, K.voicePlanOrder] },
  },
  batchDelete: true,
  // an order in effect is a merchant's running subscription: cancel or refund it first (its
  // change log goes with a deleted order)
  beforeDelete: async (row) => {
    if (row.status === 1) throw conflict(`plan order ${String(row.id)} is active, cancel or refund it first / 套餐订单 ${String(row.id)} 生效中，请先取消或退款`);
  },
  validate: async (v, ctx, _mode, before) => {
    await mustExist(ctx.db, 'merchant_user', v.user_id, 'user_id');
    await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    await mustExist(ctx.db, 'plan', v.plan_id, 'plan_id');
    const start = new Date(String(v.start_at ?? before?.start_at));
    const end = new Date(String(v.end_at ?? before?.end_at));
    if (!(end > start)) throw invalid([{ field: 'end_at', message: 'end must be after start / 结束时间须晚于开始时间' }]);
    const userId = v.user_id ?? before?.user_id;
    const shopId = v.shop_id !== undefined ? v.shop_id : before?.shop_id;
    if (shopId !== null && shopId !== undefined && (v.user_id !== undefined || v.shop_id !== undefined)) {
      const r = await ctx.db.query(`SELECT 1 FROM shop WHERE id = $1 AND user_id = $2`, [shopId, userId]);
      if (!r.rows.length) throw invalid([{ field: 'shop_id', message: 'the shop does not belong to this user / 店铺不属于该用户' }]);
    }
    if (_mode === 'create') {
      // server-assigned order number: PO + date + sequence
      const r = await ctx.db.query<{ n: string }>(
        `SELECT 'PO' || to_char(now(), 'YYYYMMDD') || lpad((coalesce(max(id), 0) + 1)::text, 6, '0') AS n FROM plan_order`,
      );
      v.order_no = r.rows[0].n;
    }
  },
  afterCreate: (row, ctx) => writeLog(ctx, row.id as number, 'create', { after: row }),
  afterUpdate: (after, before, ctx) => writeLog(ctx, after.id as number, 'update', diff(before, after)),
};
// order_no is never accepted from a client; validate() sets it on create
planOrder.fields.order_no = { ...planOrder.fields.order_no, readOnly: false, serverSet: true, createOnly: true };

function diff(before: Row, after: Row): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of Object.keys(after)) {
    if (k === 'updated_at') continue;
    const a = JSON.stringify(before[k]);
    const b = JSON.stringify(after[k]);
    if (a !== b) out[k] = { from: before[k], to: after[k] };
  }
  return out;
}

async function writeLog(ctx: RouteContext, id: number, action: string, changes: unknown) {
  await ctx.db.query(
    `INSERT INTO plan_order_log (plan_order_id, action, changes, operator_id, operator_name) VALUES ($1, $2, $3, $4, $5)`,
    [id, action, JSON.stringify(changes), ctx.user?.id ?? null, ctx.user?.name ?? ''],
  );
}

export const planOrderRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: 'plan-order/log-info',
    access: { permission: [K.planOrder, K.voicePlanOrder] },
    summary: 'Change log of one plan order (newest first)',
    query: Type.Object(
      {
        id: Id,
        page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
        page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
      },
      { additionalProperties: false },
    ),
    // the log's declaration follows below
    get reply() {
      return pageReply(rowSchema(planOrderLog, true));
    },
    handler: async ({ db, query: q }) => {
      const r = await db.query(`SELECT 1 FROM plan_order WHERE id = $1`, [q.id]);
      if (!r.rows.length) throw notFound('plan order');
      return listRows(planOrderLog, db, { page: q.page, page_size: q.page_size, plan_order_id: q.id });
    },
  }),
];

const planOrderLog: ResourceDef = {
  name: 'plan-order/log',
  table: 'plan_order_log',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    plan_order_id: { schema: ID, filter: 'eq' },
    action: F.str(20),
    changes: { schema: { type: 'object', additionalProperties: true } },
    operator_id: { schema: { type: 'integer' }, nullable: true },
    operator_name: F.str(100),
    created_at: F.createdAt(),
  },
  operations: {},
};
