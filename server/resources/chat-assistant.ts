import type { RouteContext } from '../http/route.js';
import { F } from './engine/fields.js';
import { mustExist } from './engine/refs.js';
import { insertRow, mustFind } from './engine/routes.js';
import { ID, rowSchema } from './engine/schemas.js';
import type { ResourceDef } from './engine/types.js';
import { CHANNELS } from './enums.js';
import { K } from './keys.js';

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
    prompt: F.text(20000, { required: true, detailOnly: true }),
    welcome_message: F.str(1000),
    temperature: { schema: { type: 'number', minimum: 0, maximum: 2 }, select: 't.temperature::float8' },
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
  validate: async (v, ctx) => mustExist(ctx.db, 'shop', v.shop_id, 'shop_id'),
};

chatAssistant.actions = [
  {
    method: 'POST',
    path: 'chat/assistant/copy',
    access: { permission: [K.assistantAdd, K.assistant] },
    summary: 'Copy an assistant (name gets a " copy" suffix; the copy starts disabled)',
    reply: rowSchema(chatAssistant),
    body: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: ID, name: { type: 'string', minLength: 1, maxLength: 100 } } },
    handler: async (ctx) => {
      const b = ctx.body as { id: number; name?: string };
      const src = await mustFind(chatAssistant, ctx as RouteContext, b.id);
      const { id: _id, shop_name: _s, created_at: _c, updated_at: _u, ...rest } = src;
      return insertRow(chatAssistant, ctx as RouteContext, { ...rest, name: b.name ?? `${String(src.name).slice(0, 94)} copy`, status: 0 });
    },
  },
];
