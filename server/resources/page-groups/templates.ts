/** Template management: `reply-template/*` (reply and notification templates, migration 0020). */
import { invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { mustExist } from '../engine/refs.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { PG } from './keys.js';

// ---------------------------------------------------------------- template management

export const TEMPLATE_KINDS = ['reply', 'notification'] as const;
export const TEMPLATE_LANGUAGES = ['zh-CN', 'en-US'] as const;

/** Reply and notification templates: one shop's or everyone's (no shop). */
export const replyTemplate: ResourceDef = {
  name: 'reply-template',
  auditName: 'reply_template',
  table: 'reply_template',
  keyword: "to_tsvector('simple', t.name || ' ' || t.content)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { schema: ID, nullable: true, filter: 'eq' },
    shop_name: F.shopName(),
    name: F.str(100, { required: true, sort: true }, 1),
    kind: F.enumOf(TEMPLATE_KINDS, { required: true }),
    channel: F.enumOf(['chat', 'email'] as const),
    language: F.enumOf(TEMPLATE_LANGUAGES),
    subject: F.str(200),
    content: F.text(5000, { required: true, schema: { type: 'string', minLength: 1, maxLength: 5000 } }),
    variables: F.str(500),
    status: F.enumOf([0, 1]),
    remark: F.str(500),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: PG.template },
    detail: { permission: PG.template },
    create: { permission: PG.templateAdd },
    update: { permission: PG.templateUpdate },
    delete: { permission: PG.templateDelete },
  },
  batchDelete: true,
  validate: async (v, ctx, _mode, before) => {
    await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    const channel = v.channel ?? before?.channel ?? 'chat';
    const kind = v.kind ?? before?.kind;
    const subject = String(v.subject ?? before?.subject ?? '');
    if (kind === 'notification' && channel === 'email' && !subject.trim()) {
      throw invalid([{ field: 'subject', message: 'an e-mail notification needs a subject / 邮件通知需要填写主题' }]);
    }
  },
};

// ---------------------------------------------------------------- sync message and log
