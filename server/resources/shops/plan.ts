import { Type, type TSchema } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { F } from '../engine/fields.js';
import type { ResourceDef } from '../engine/types.js';
import { CURRENCIES, PLAN_ORDER_STATUS, PLAN_PERIODS, PLAN_PRODUCTS, ids } from '../enums.js';
import { K } from '../keys.js';

/**
 * Subscription plans (spec: fields not shown; designed in docs/business-api.md): a product
 * (text / voice), a billing period, a price, and the quotas a merchant gets.
 */
export const plan: ResourceDef = {
  name: 'plan',
  table: 'plan',
  keyword: undefined,
  keywordIds: ['id'],
  defaultSort: { field: 'sort', order: 'asc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    product: F.enumOf(ids(PLAN_PRODUCTS), { required: true }),
    period: F.enumOf(ids(PLAN_PERIODS), { required: true }),
    price: F.money({ select: 't.price::float8', required: true }),
    currency: F.enumOf(CURRENCIES),
    chat_quota: F.int(0, 100000000),
    email_quota: F.int(0, 100000000),
    voice_minutes: F.int(0, 100000000),
    status: F.enumOf([0, 1]),
    description: F.str(1000),
    sort: F.int(0, 10000, { sort: true }),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [K.plan, K.voicePlan, K.planOrder, K.voicePlanOrder] },
    detail: { permission: [K.plan, K.voicePlan] },
    create: { permission: [K.planCreate, K.voicePlan] },
    update: { permission: [K.planUpdate, K.voicePlan] },
    delete: { permission: [K.planUpdate, K.voicePlan] },
  },
  batchDelete: true,
  dependents: [{ table: 'plan_order', column: 'plan_id', label: { en: 'plan orders', zh: '套餐订单' } }],
};

const labelled = <T extends TSchema>(id: T) => Type.Object({ id, label: Type.String(), label_en: Type.String() });

export const planConfigRoute: RouteDef = route({
  method: 'GET',
  path: 'plan/config',
  access: { permission: [K.plan, K.voicePlan, K.planOrder, K.voicePlanOrder] },
  summary: 'Option lists of the plan and plan-order forms',
  query: Type.Object({}, { additionalProperties: false }),
  reply: Type.Object({
    products: Type.Array(labelled(Type.String())),
    periods: Type.Array(labelled(Type.String())),
    currencies: Type.Array(Type.String()),
    statuses: Type.Array(labelled(Type.Integer())),
    order_statuses: Type.Array(labelled(Type.Integer())),
  }),
  handler: async () => ({
    products: PLAN_PRODUCTS,
    periods: PLAN_PERIODS,
    currencies: [...CURRENCIES],
    statuses: [
      { id: 1, label: '上架', label_en: 'On sale' },
      { id: 0, label: '下架', label_en: 'Off sale' },
    ],
    order_statuses: PLAN_ORDER_STATUS,
  }),
});
