import { Type, type TSchema } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { StringEnum } from '../../http/typebox.js';
import { conflict } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { mustExist } from '../engine/refs.js';
import { insertRow, mustFind, updateRow } from '../engine/routes.js';
import { ID, Id, idBody, rowSchema } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { CHANNELS, MATERIAL_STATUS, POLICY_SOURCE_TYPES, TICKET_LEARN, ids } from '../enums.js';
import { K } from '../keys.js';
import { exportRoutes } from './learn-export.js';
import { policy } from './policy.js';

/** Learning materials: tickets and dialogues an operator turns into knowledge. */
export const learnMaterial: ResourceDef = {
  name: 'learn-material',
  auditName: 'learn_material',
  table: 'learn_material',
  keyword: "to_tsvector('simple', t.subject)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: F.shopId(),
    shop_name: F.shopName(),
    mail_account_id: F.mailAccountFilter(),
    user_id: { schema: ID, nullable: true, filter: 'eq' },
    channel: F.enumOf(CHANNELS),
    source_type: F.enumOf(ids(POLICY_SOURCE_TYPES)),
    subject: F.str(300, { required: true }, 1),
    question: F.text(20000, { required: true, detailOnly: true }),
    answer: F.text(20000, { detailOnly: true }),
    status: F.enumOf(ids(MATERIAL_STATUS)),
    ticket_learn: F.enumOf(ids(TICKET_LEARN)),
    ticket_learn_note: F.str(1000),
    remark: F.str(1000),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [K.material, K.materialDetail] },
    detail: { permission: [K.material, K.materialDetail], path: 'info' },
  },
};

/**
 * Knowledge written from a material (question + answer), later turned into a policy
 * (learning material → `learn-knowledge/create` → `learn-knowledge/to-policy`); listed on the
 * material's detail page and on learn/material/knowledge.
 */
export const learnKnowledge: ResourceDef = {
  name: 'learn-knowledge',
  auditName: 'learn_knowledge',
  table: 'learn_knowledge',
  keyword: "to_tsvector('simple', t.question)",
  keywordIds: ['id', 'material_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    material_id: { schema: ID, nullable: true, filter: 'eq' },
    material_subject: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT m.subject FROM learn_material m WHERE m.id = t.material_id)',
    },
    shop_id: F.shopId(),
    shop_name: F.shopName(),
    question: F.str(500, { required: true }, 1),
    answer: F.text(20000, { required: true }),
    channel: F.enumOf(CHANNELS),
    policy_id: { schema: { type: 'integer' }, nullable: true, readOnly: true, filter: 'eq' },
    policy_title: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT p.title FROM policy p WHERE p.id = t.policy_id)',
    },
    created_at: F.createdAt(),
  },
  operations: {
    list: { permission: [K.material, K.materialDetail, K.materialKnowledge] },
  },
};

/** `POST learn-material/<path>` with `body` ({ id, … }): `apply` turns the body into the columns written (audit action `action`). */
const materialAction = <B extends { id: number }>(
  path: string,
  permission: string | string[],
  body: TSchema & { static: B },
  apply: (b: B) => Record<string, unknown>,
  action: string,
) =>
  route({
    method: 'POST',
    path: `learn-material/${path}`,
    access: { permission },
    body,
    get reply() {
      return rowSchema(learnMaterial);
    },
    handler: async (ctx) => {
      const { id } = ctx.body;
      const before = await mustFind(learnMaterial, ctx, id);
      return updateRow(learnMaterial, ctx, id, apply(ctx.body), before, action);
    },
  });

learnMaterial.actions = [
  ...exportRoutes(learnMaterial),
  materialAction(
    'remark',
    K.materialRemark,
    Type.Object({ id: Id, remark: Type.String({ maxLength: 1000 }) }, { additionalProperties: false }),
    (b) => ({ remark: b.remark }),
    'remark',
  ),
  route({
    method: 'POST',
    path: 'learn-material/ticket-learn',
    access: { permission: K.materialTicketLearn },
    body: idBody,
    get reply() {
      return rowSchema(learnMaterial);
    },
    summary: 'Start learning a ticket: status learning, and a policy candidate for review in shop/learn-policy',
    handler: async (ctx) => {
      const { id } = ctx.body;
      const before = await mustFind(learnMaterial, ctx, id);
      if (before.ticket_learn !== 0) throw conflict('this ticket is already being learned or learned / 该工单正在学习或已学习');
      const m = (await ctx.db.query<{ shop_id: number; subject: string; question: string; answer: string; channel: string }>(
        `SELECT shop_id, subject, question, answer, channel FROM learn_material WHERE id = $1`, [id])).rows[0];
      await ctx.db.query(
        // the candidate remembers its material: its review closes the ticket's learning (learn-review.ts)
        `INSERT INTO learn_policy (shop_id, question, answer, channel, status, source, material_id) VALUES ($1, $2, $3, $4, 0, 'material', $5)`,
        [m.shop_id, m.subject.slice(0, 500), m.answer || m.question, m.channel, id],
      );
      return updateRow(learnMaterial, ctx, id, { ticket_learn: 1 }, before, 'ticket_learn');
    },
  }),
  materialAction(
    'update-ticket-learn',
    K.materialTicketLearn,
    Type.Object(
      { id: Id, ticket_learn: Type.Integer({ enum: ids(TICKET_LEARN) }), ticket_learn_note: Type.Optional(Type.String({ maxLength: 1000 })) },
      { additionalProperties: false },
    ),
    (b) => ({ ticket_learn: b.ticket_learn, ...(b.ticket_learn_note !== undefined ? { ticket_learn_note: b.ticket_learn_note } : {}) }),
    'update_ticket_learn',
  ),
];

export const knowledgeRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: 'learn-knowledge/create',
    access: { permission: [K.materialDetail, K.material] },
    summary: 'Write knowledge (question + answer) from a material; the material becomes learned',
    reply: rowSchema(learnKnowledge),
    body: Type.Object(
      {
        material_id: Type.Optional(Id),
        shop_id: Id,
        question: Type.String({ minLength: 1, maxLength: 500 }),
        answer: Type.String({ minLength: 1, maxLength: 20000 }),
        channel: Type.Optional(StringEnum(CHANNELS)),
      },
      { additionalProperties: false },
    ),
    handler: async (ctx) => {
      const b = ctx.body;
      await mustExist(ctx.db, 'shop', b.shop_id, 'shop_id');
      await mustExist(ctx.db, 'learn_material', b.material_id, 'material_id');
      const row = await insertRow(learnKnowledge, ctx, b);
      if (b.material_id) {
        const before = await mustFind(learnMaterial, ctx, b.material_id);
        if (before.status !== 1) await updateRow(learnMaterial, ctx, b.material_id, { status: 1 }, before, 'learned');
      }
      return row;
    },
  }),
  route({
    method: 'POST',
    path: 'learn-knowledge/to-policy',
    access: { permission: [K.materialDetail, K.material, K.materialKnowledge] },
    summary: 'Turn a knowledge entry into a shop policy (once)',
    reply: rowSchema(policy),
    body: Type.Object(
      {
        id: Id,
        title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        source_type: Type.Optional(Type.Integer({ enum: ids(POLICY_SOURCE_TYPES), default: 5 })),
      },
      { additionalProperties: false },
    ),
    handler: async (ctx) => {
      const b = ctx.body;
      const before = await mustFind(learnKnowledge, ctx, b.id);
      if (before.policy_id) throw conflict(`already turned into policy ${String(before.policy_id)} / 已转为策略 ${String(before.policy_id)}`);
      const created = await insertRow(policy, ctx, {
        shop_id: before.shop_id,
        title: b.title ?? String(before.question).slice(0, 200),
        content: before.answer,
        source_type: b.source_type ?? 5,
        channel: before.channel,
      });
      await ctx.db.query(`UPDATE learn_knowledge SET policy_id = $1 WHERE id = $2`, [created.id, b.id]);
      await ctx.audit({ action: 'to_policy', resource: 'learn_knowledge', targetId: b.id, before, after: { ...before, policy_id: created.id } });
      return created;
    },
  }),
];
