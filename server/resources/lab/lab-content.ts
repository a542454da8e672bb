/** Lab AI conversation management (conversations with their messages) and comment management. */
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { mustExistIn } from './common.js';
import { LK } from './keys.js';

export const SCENES = ['presale', 'aftersale', 'logistics', 'chitchat'] as const;
export const CONTENT_MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'qwen-max', 'doubao-pro'] as const;

const MESSAGE = {
  type: 'object',
  additionalProperties: false,
  required: ['role', 'content'],
  properties: { role: { type: 'string', enum: ['user', 'assistant', 'system'] }, content: { type: 'string', minLength: 1, maxLength: 4000 } },
};

export const conversation: ResourceDef = {
  name: 'lab/content',
  auditName: 'lab_conversation',
  table: 'lab_conversation',
  keyword: "to_tsvector('simple', t.title)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  maxPageSize: 1000,
  fields: {
    id: F.id(),
    title: F.str(200, { required: true }, 1),
    scene: F.enumOf(SCENES, { required: true }),
    model: F.enumOf(CONTENT_MODELS),
    messages: { schema: { type: 'array', minItems: 1, maxItems: 200, items: MESSAGE }, required: true, detailOnly: true },
    message_count: { schema: { type: 'integer' }, virtual: true, select: 'jsonb_array_length(t.messages)' },
    comment_count: { schema: { type: 'integer' }, virtual: true, select: '(SELECT count(*)::int FROM lab_comment c WHERE c.conversation_id = t.id)' },
    status: F.enumOf([0, 1]),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [LK.content.page, LK.comment] },
    detail: { permission: [LK.content.page, LK.content.detail, LK.content.update] },
    create: { permission: LK.content.add },
    update: { permission: LK.content.update },
    delete: { permission: LK.content.update },
  },
  // jsonb: the driver would send a JS array as a PostgreSQL array
  validate: async (v) => {
    if (Array.isArray(v.messages)) v.messages = JSON.stringify(v.messages);
  },
};

/** 1 visible, 0 hidden (moderated). */
export const COMMENT_STATUS = [0, 1] as const;

export const comment: ResourceDef = {
  name: 'lab/comment',
  auditName: 'lab_comment',
  table: 'lab_comment',
  keyword: "to_tsvector('simple', t.author || ' ' || t.content)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    conversation_id: { schema: ID, required: true, filter: 'eq', createOnly: true },
    conversation_title: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT c.title FROM lab_conversation c WHERE c.id = t.conversation_id)' },
    author: F.str(100, { required: true }, 1),
    content: F.str(2000, { required: true }, 1),
    rating: F.int(1, 5, { filter: 'eq', sort: true }),
    status: F.enumOf(COMMENT_STATUS),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: LK.comment },
    detail: { permission: LK.comment },
    create: { permission: LK.comment },
    update: { permission: LK.comment },
    delete: { permission: LK.comment },
  },
  validate: async (v, ctx) => {
    await mustExistIn(ctx, 'lab_conversation', v.conversation_id, 'conversation_id');
  },
};
