import { invalid } from '../../http/errors.js';
import { Type } from '@sinclair/typebox';
import { route } from '../../http/route.js';
import { F } from '../engine/fields.js';
import { mustExist } from '../engine/refs.js';
import { insertRow, mustFind } from '../engine/routes.js';
import { ID, Id, rowSchema } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { CHANNELS } from '../enums.js';
import { K } from '../keys.js';

export const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'qwen-max', 'doubao-pro'] as const;

/** Text (chat) assistants: a model, a prompt and a welcome message, optionally bound to a shop. */
export const chatAssistant: ResourceDef = {
  name: 'chat/assistant',
  auditName: 'chat_assistant',
  table: 'chat_assistant',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    shop_id: { schema: ID, nullable: true, filter: 'eq' },
    shop_name: F.shopName(),
    model: F.enumOf(MODELS, { required: true }),
    /** the model server that answers (none: the built-in responder) */
    model_server_id: { schema: ID, nullable: true, filter: 'eq' },
    model_server_name: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT m.name FROM config_model_server m WHERE m.id = t.model_server_id)',
    },
    prompt: F.text(20000, { required: true, detailOnly: true }),
    welcome_message: F.str(1000),
    /** no model server: answer through the shop and channel's model strategy (traffic split, fallback server) instead of the built-in responder */
    use_strategy: F.bool(),
    /** sampling settings sent to the model with every answer of this assistant (top_p and max_tokens: empty = the strategy's / server's) */
    temperature: { schema: { type: 'number', minimum: 0, maximum: 2 }, select: 't.temperature::float8' },
    top_p: { schema: { type: 'number', exclusiveMinimum: 0, maximum: 1 }, nullable: true, select: 't.top_p::float8' },
    max_tokens: { schema: { type: 'integer', minimum: 1, maximum: 200000 }, nullable: true },
    /** retrieval decision of this assistant's answers (empty: the knowledge base's, server/ai/knowledge/settings.ts) */
    score_threshold: { schema: { type: 'number', minimum: 0, maximum: 1 }, nullable: true, select: 't.score_threshold::float8' },
    top_k: { schema: { type: 'integer', minimum: 1, maximum: 20 }, nullable: true },
    channel: F.enumOf(CHANNELS),
    status: F.enumOf([0, 1]),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: K.assistant },
    detail: { permission: [K.assistant, K.assistantDetail, K.assistantEdit], path: 'info' },
    create: { permission: K.assistantAdd },
    update: { permission: K.assistantEdit },
    delete: { permission: K.assistant },
  },
  validate: async (v, ctx) => {
    await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    if (v.model_server_id !== undefined && v.model_server_id !== null) {
      const r = await ctx.db.query(`SELECT 1 FROM config_model_server WHERE id = $1`, [v.model_server_id]);
      if (!r.rows.length) throw invalid([{ field: 'model_server_id', message: `${String(v.model_server_id)} does not exist / 模型服务不存在` }]);
    }
  },
};

chatAssistant.actions = [
  route({
    method: 'POST',
    path: 'chat/assistant/copy',
    access: { permission: [K.assistantAdd, K.assistant] },
    summary: 'Copy an assistant (name gets a " copy" suffix; the copy starts disabled)',
    reply: rowSchema(chatAssistant),
    body: Type.Object({ id: Id, name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
    handler: async (ctx) => {
      const b = ctx.body;
      const src = await mustFind(chatAssistant, ctx, b.id);
      const { id: _id, shop_name: _s, created_at: _c, updated_at: _u, ...rest } = src;
      return insertRow(chatAssistant, ctx, { ...rest, name: b.name ?? `${String(src.name).slice(0, 94)} copy`, status: 0 });
    },
  }),
];
