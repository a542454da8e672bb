import { F } from '../engine/fields.js';
import { mustExist } from '../engine/refs.js';
import type { ResourceDef } from '../engine/types.js';
import { CHANNELS, POLICY_SOURCE_TYPES, REVIEW_STATUS, ids } from '../enums.js';
import { K } from '../keys.js';
import { reviewCandidate, reviewProductCandidate } from './learn-review.js';

/** Shop policies (knowledge): source types 1–11, channels chat / email. */
export const policy: ResourceDef = {
  name: 'shop/policy',
  auditName: 'policy',
  table: 'policy',
  keyword: "to_tsvector('simple', t.title)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: F.shopId({ createOnly: true }),
    shop_name: F.shopName(),
    title: F.str(200, { required: true }, 1),
    content: F.text(20000, { required: true, detailOnly: false }),
    source_type: F.enumOf(ids(POLICY_SOURCE_TYPES), { required: true }),
    channel: F.enumOf(CHANNELS, { required: true }),
    status: F.enumOf([0, 1]),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [K.policy, K.storePolicy, K.material] },
    detail: { permission: [K.policy, K.storePolicy] },
    create: { permission: K.policyCreate },
    update: { permission: K.policyUpdate },
    delete: { permission: K.policyDelete },
  },
  validate: async (v, ctx) => mustExist(ctx.db, 'shop', v.shop_id, 'shop_id'),
};

/** Auto-learned policy candidates awaiting review (learn/autoLearnPolicy). */
export const learnPolicy: ResourceDef = {
  name: 'shop/learn-policy',
  auditName: 'learn_policy',
  table: 'learn_policy',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), readOnly: true },
    shop_name: F.shopName(),
    question: F.str(500, {}, 1),
    answer: F.text(20000),
    channel: F.enumOf(CHANNELS),
    status: F.enumOf(ids(REVIEW_STATUS)),
    // auto-learn (server/resources/learning/auto-learn.ts): where it was mined, how sure, and the review
    source: { schema: { type: 'string', enum: ['', 'chat', 'mail', 'material'] }, readOnly: true, filter: 'eq' },
    session_id: { schema: { type: 'integer' }, nullable: true, readOnly: true },
    rule_id: { schema: { type: 'integer' }, nullable: true, readOnly: true, filter: 'eq' },
    confidence: { schema: { type: 'number' }, nullable: true, readOnly: true, select: 't.confidence::float8', sort: true },
    reject_reason: F.str(500),
    policy_id: { schema: { type: 'integer' }, nullable: true, serverSet: true },
    // the learning material (ticket learning) the candidate was started from
    material_id: { schema: { type: 'integer' }, nullable: true, readOnly: true },
    reviewed_at: F.dateTime({ nullable: true, serverSet: true }),
    reviewed_by: { schema: { type: 'integer' }, nullable: true, serverSet: true },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: K.autoLearnPolicy },
    update: { permission: K.autoLearnPolicy },
  },
  // 采纳 creates the policy (source 5) in the same transaction; 拒绝 needs a reason (learn-review.ts)
  validate: (v, ctx, mode, before) => reviewCandidate(policy, v, ctx, mode, before),
};

/** Auto-learned product knowledge awaiting review (learn/autoLearnProduct). */
export const learnPolicyProduct: ResourceDef = {
  name: 'shop/learn-policy-product',
  auditName: 'learn_policy_product',
  table: 'learn_policy_product',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), readOnly: true },
    shop_name: F.shopName(),
    product_id: { schema: { type: 'string', maxLength: 60 }, readOnly: true },
    product_title: F.str(300, {}, 1),
    content: F.text(20000),
    status: F.enumOf(ids(REVIEW_STATUS)),
    // the product description an adopted candidate was written to (its knowledge)
    product_desc_id: { schema: { type: 'integer' }, nullable: true, serverSet: true },
    reviewed_at: F.dateTime({ nullable: true, serverSet: true }),
    reviewed_by: { schema: { type: 'integer' }, nullable: true, serverSet: true },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: K.autoLearnProduct },
    update: { permission: K.autoLearnProduct },
  },
  // 采纳 writes the text into the product's knowledge in the same transaction (learn-review.ts)
  validate: (v, ctx, mode, before) => reviewProductCandidate(v, ctx, mode, before),
};
