import { F } from '../engine/fields.js';
import { mustFind, updateRow } from '../engine/routes.js';
import { Type } from '@sinclair/typebox';
import { ID, rowSchema, type Fields } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { route } from '../../http/route.js';
import { FEEDBACK_HANDLE_STATUS as HANDLE_STATUS, FEEDBACK_STATUS } from '../enums.js';
import { SK } from './keys.js';

/** feedback_status and feedback_handle_status values (schemas/enums/feedback_status.json, feedback_handle_status.json). */
export { FEEDBACK_STATUS, HANDLE_STATUS };

const ro = { readOnly: true };

/** Feedback on AI answers (spec section 3 Feedback); the console lists it and handles it. */
export const feedback: ResourceDef = {
  name: 'session/feedback',
  auditName: 'feedback',
  table: 'feedback',
  keyword: "to_tsvector('simple', t.description || ' ' || t.email)",
  keywordIds: ['id', 'session_id', 'message_id'],
  defaultSort: { field: 'feedback_at', order: 'desc' },
  fields: {
    id: F.id(),
    message_id: { schema: { type: 'integer' }, nullable: true, ...ro },
    session_id: { schema: { type: 'integer' }, nullable: true, filter: 'eq', ...ro },
    policy_id: { schema: { type: 'integer' }, nullable: true, ...ro },
    question_type: F.str(50, ro),
    description: F.text(20000, ro),
    scope: F.str(50, ro),
    platform: F.str(50, { ...ro, filter: 'eq' }),
    country_code: F.str(2, ro),
    seat: F.str(100, ro),
    email: F.str(200, ro),
    feedback_at: { ...F.dateTime(), ...ro, filter: 'range', sort: true },
    status: F.enumOf(FEEDBACK_STATUS),
    handle_status: F.enumOf(HANDLE_STATUS),
    handler: { schema: { type: 'string' }, serverSet: true },
    annotation: F.text(5000),
    remark: F.str(1000),
    image: F.str(500, ro),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: SK.feedback },
    detail: { permission: SK.feedback },
  },
};

/** `session/feedback/handle`: set status / handling status / annotation / remark; the handler is the caller. */
feedback.actions = [
  route({
    method: 'POST',
    path: 'session/feedback/handle',
    access: { permission: SK.feedback },
    summary: 'Handle a feedback: statuses, annotation and remark (the handler is the signed-in account)',
    // the declaration's own field schemas: typed as a record with its id, as the engine's update body
    body: Type.Unsafe<Fields & { id: number }>({
      type: 'object',
      additionalProperties: false,
      required: ['id', 'handle_status'],
      properties: {
        id: ID,
        status: feedback.fields.status.schema,
        handle_status: feedback.fields.handle_status.schema,
        annotation: feedback.fields.annotation.schema,
        remark: feedback.fields.remark.schema,
      },
    }),
    reply: rowSchema(feedback),
    handler: async (ctx) => {
      const { id, ...values } = ctx.body;
      const before = await mustFind(feedback, ctx, id);
      return updateRow(feedback, ctx, id, { ...values, handler: ctx.user?.email ?? '' }, before, 'handle');
    },
  }),
];
