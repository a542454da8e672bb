import { F } from '../engine/fields.js';
import type { ResourceDef } from '../engine/types.js';
import { FINANCIAL_STATUS, FULFILLMENT_STATUS } from '../enums.js';
import { K } from '../keys.js';

/** Shopify orders of the shops (order query page; `raw` is the source data for the modal). */
export const order: ResourceDef = {
  name: 'order',
  auditName: 'shop_order',
  table: 'shop_order',
  keywordIds: ['id'],
  defaultSort: { field: 'created_at', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: F.shopId(),
    shop_name: F.shopName(),
    name: F.str(40, { filter: 'eq', required: true }),
    email: F.email({ filter: 'ci', required: true }),
    customer_name: F.str(100),
    amount: F.money({ select: 't.amount::float8', required: true }),
    currency: { schema: { type: 'string', pattern: '^[A-Z]{3}$' } },
    financial_status: F.enumOf(FINANCIAL_STATUS, { required: true }),
    fulfillment_status: F.enumOf(FULFILLMENT_STATUS, { required: true }),
    tracking_company: F.str(60, { nullable: true }),
    tracking_number: F.str(60, { nullable: true }),
    created_at: { schema: { type: 'string', format: 'date-time' }, required: true, filter: 'range', sort: true },
    raw: { schema: { type: 'object', additionalProperties: true }, detailOnly: true },
  },
  operations: {
    list: { permission: K.order },
    detail: { permission: K.order },
  },
};
