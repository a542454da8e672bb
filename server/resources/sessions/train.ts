/**
 * The session "train" modal (spec section 2: "train and detail modals"): the operator sends a
 * chat session's question and answer to the learning materials, as a "conversation training"
 * material (policy source type 11) of the session's shop, for the learning center to turn into
 * knowledge and a policy (learn-material.ts). The spec does not name the target; see
 * docs/modules/sessions.md.
 */
import { Type } from '@sinclair/typebox';
import { route } from '../../http/route.js';
import { invalid } from '../../http/errors.js';
import { insertRow } from '../engine/routes.js';
import { Id, rowSchema } from '../engine/schemas.js';
import { learnMaterial } from '../learning/learn-material.js';
import { SK } from './keys.js';

/** policy_source_type 11: conversation training */
export const CONVERSATION_TRAINING = 11;

export const sessionTrainRoute = route({
  method: 'POST',
  path: 'session/train',
  access: { permission: SK.chatTrain },
  summary: "Send a chat session's question and answer to the learning materials (source type 11, conversation training)",
  body: Type.Object(
    {
      session_id: Id,
      subject: Type.String({ minLength: 1, maxLength: 300 }),
      question: Type.String({ minLength: 1, maxLength: 20000 }),
      answer: Type.String({ minLength: 1, maxLength: 20000 }),
      remark: Type.Optional(Type.String({ maxLength: 1000 })),
    },
    { additionalProperties: false },
  ),
  get reply() {
    return rowSchema(learnMaterial);
  },
  handler: async (ctx) => {
    const b = ctx.body;
    const s = (await ctx.db.query<{ shop_id: number }>('SELECT shop_id FROM chat_session WHERE id = $1', [b.session_id])).rows[0];
    if (!s) throw invalid([{ field: 'session_id', message: `chat session ${String(b.session_id)} does not exist / 会话不存在` }]);
    return insertRow(learnMaterial, ctx, {
      shop_id: s.shop_id,
      channel: 'chat',
      source_type: CONVERSATION_TRAINING,
      subject: b.subject,
      question: b.question,
      answer: b.answer,
      remark: b.remark ?? '',
    });
  },
});
