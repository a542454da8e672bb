import { invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from './keys.js';

/** Session marks (session/mark, addMark, editMark/:id): an operator's verdict on one AI answer. */
export const sessionMark: ResourceDef = {
  name: 'session/mark',
  auditName: 'session_mark',
  table: 'session_mark',
  keywordIds: ['id', 'session_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    session_id: { schema: ID, required: true, filter: 'eq' },
    shop_name: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT s.name FROM chat_session c JOIN shop s ON s.id = c.shop_id WHERE c.id = t.session_id)',
    },
    message_id: { schema: ID, nullable: true },
    mark_type: F.str(50, { required: true }, 1),
    is_correct: F.bool({ required: true }),
    question: F.text(5000, { required: true }),
    answer: F.text(5000),
    remark: F.str(1000),
    marked_by: { schema: { type: 'string' }, serverSet: true },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: SK.mark },
    detail: { permission: [SK.mark, SK.markEdit] },
    create: { permission: SK.markAdd },
    update: { permission: SK.markEdit },
    delete: { permission: SK.mark },
  },
  validate: async (v, ctx) => {
    v.marked_by = ctx.user?.email ?? '';
    if (v.session_id !== undefined) {
      const r = await ctx.db.query(`SELECT 1 FROM chat_session WHERE id = $1`, [v.session_id]);
      if (!r.rows.length) throw invalid([{ field: 'session_id', message: `session ${String(v.session_id)} does not exist / 会话不存在` }]);
    }
    if (v.message_id !== undefined && v.message_id !== null) {
      const r = await ctx.db.query(`SELECT session_id FROM chat_message WHERE id = $1`, [v.message_id]);
      if (!r.rows.length) throw invalid([{ field: 'message_id', message: `message ${String(v.message_id)} does not exist / 消息不存在` }]);
    }
  },
};
