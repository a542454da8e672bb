/**
 * The sessions' "batch status" (spec section 2 names it without its behaviour): the chat list's
 * selected sessions (1–100) are set ended or ongoing at once, with a result per row (the shape
 * of every batch, server/resources/engine/batch-actions.ts: done, skipped, refused). The status
 * is derived at read (viewers.ts): `ended` stores `ended_at` = now on the sessions still ongoing;
 * `ongoing` clears a stored `ended_at`, and is refused for a session whose transcript itself
 * ends (the end event cannot be unsaid). Unknown ids are refused; rows already in the status
 * are skipped. Each changed row is audited (`batch_status` on chat_session). See
 * docs/modules/sessions.md.
 */
import { Type } from '@sinclair/typebox';
import { conflict, notFound } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { StringEnum } from '../../http/typebox.js';
import { BATCH_REPLY_PROPS } from '../../../src/contract/replies/batch.js';
import { batchCounts, eachRow } from '../engine/batch-actions.js';
import { Id } from '../engine/schemas.js';
import { SK } from './keys.js';
import { CHAT_STATUSES, DERIVED_END } from './viewers.js';

export const sessionBatchStatusRoute = route({
  method: 'POST',
  path: 'session/batch-status',
  access: { permission: SK.chatBatchStatus },
  summary: 'Set several chat sessions (1–100) ended or ongoing; a result per row (done / skipped / refused with its reason)',
  body: Type.Object(
    { ids: Type.Array(Id, { minItems: 1, maxItems: 100, uniqueItems: true }), status: StringEnum(CHAT_STATUSES) },
    { additionalProperties: false },
  ),
  // the batch's counts and results are the engine's (src/contract/replies/batch.ts), with the status set
  reply: Type.Object({ status: StringEnum(CHAT_STATUSES), ...BATCH_REPLY_PROPS }),
  handler: async (ctx) => {
    const { ids, status } = ctx.body;
    const found = await ctx.db.query<{ id: number; stored_end: string | null; derived_end: string | null }>(
      `SELECT t.id, t.ended_at AS stored_end, ${DERIVED_END} AS derived_end FROM chat_session t WHERE t.id = ANY($1::int[])`,
      [ids],
    );
    const byId = new Map(found.rows.map((r) => [Number(r.id), r]));
    const results = await eachRow(ctx, ids, async (id) => {
      const r = byId.get(id);
      if (!r) throw notFound('session');
      const ended = r.stored_end != null || r.derived_end != null;
      if (status === 'ended' ? ended : !ended) return status === 'ended' ? 'already ended / 已结束' : 'already ongoing / 已在进行中';
      if (status === 'ongoing' && r.derived_end != null) throw conflict('its transcript ends the session / 会话记录已以结束事件结尾');
      const ended_at = status === 'ended' ? new Date().toISOString() : null;
      await ctx.db.query('UPDATE chat_session SET ended_at = $2 WHERE id = $1', [id, ended_at]);
      await ctx.audit({
        action: 'batch_status',
        resource: 'chat_session',
        targetId: id,
        before: { status: ended ? 'ended' : 'ongoing', ended_at: r.stored_end },
        after: { status, ended_at },
      });
    });
    return { status, ...batchCounts(results), results };
  },
});
