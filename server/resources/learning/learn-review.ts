/**
 * Reviewing auto-learn candidates (learn/autoLearnPolicy, `POST shop/learn-policy/update`):
 * - 采纳 (status 1) creates the shop policy (source type 5, auto-learn ticket) from the
 *   candidate's question and answer in the same transaction, and records it on the candidate;
 * - 拒绝 (status 2) needs a reason (`reject_reason`), kept with the candidate;
 * - an adopted candidate is final (its policy is edited in policy management).
 * Demo / older rows adopted before this (status 1, no policy) get their policy when adopted again.
 *
 * Learning closes by itself (issue 24): a candidate started from a learning material (ticket
 * learning) marks its material learned when adopted, and gives the ticket back as not learned,
 * with the reason, when rejected. An adopted product candidate (learn/autoLearnProduct) becomes
 * the product's knowledge: its text is written to the product's description row (product_desc,
 * `identified_desc`, created when the product has none), whose trigger queues it for indexing, so
 * hit testing and answers find it on the next search. All in the review's own transaction.
 */
import { conflict, invalid } from '../../http/errors.js';
import type { RouteContext } from '../../http/route.js';
import { insertRow } from '../engine/routes.js';
import type { ResourceDef, Row } from '../engine/types.js';

/** Policy source type of an adopted candidate: 5 Auto-learn ticket (spec section 3). */
export const AUTO_LEARN_SOURCE = 5;

/**
 * The candidates resource's validate hook. `policy` is the resource an adopted candidate is
 * written to, passed in by policy.ts (which declares both resources), so this file does not
 * import policy.ts back.
 */
export async function reviewCandidate(
  policy: ResourceDef,
  v: Record<string, unknown>,
  ctx: RouteContext,
  mode: 'create' | 'update',
  before?: Row,
): Promise<void> {
  if (mode !== 'update' || !before) return;
  // (an adopted candidate from before adoption created policies has none: it can still be adopted)
  if (before.status === 1 && before.policy_id) throw conflict(`this candidate was adopted as policy ${String(before.policy_id ?? '')}: edit the policy instead / 该候选已采纳为知识，请在知识管理中修改`);
  if (v.status === 2) {
    const reason = String(v.reject_reason ?? before.reject_reason ?? '').trim();
    if (!reason) throw invalid([{ field: 'reject_reason', message: 'a reason is needed to reject / 拒绝时请填写原因' }]);
    v.reject_reason = reason;
    v.reviewed_at = new Date().toISOString();
    v.reviewed_by = ctx.user?.id ?? null;
    await closeMaterial(ctx, before.material_id, 0, `candidate rejected: ${reason} / 候选被拒绝：${reason}`.slice(0, 1000));
  }
  // reopened: the old reason goes
  if (v.status === 0 && before.status === 2) v.reject_reason = v.reject_reason ?? '';
  if (v.status === 1) {
    const question = String(v.question ?? before.question ?? '').trim();
    const answer = String(v.answer ?? before.answer ?? '').trim();
    if (!answer) throw invalid([{ field: 'answer', message: 'an answer is needed to adopt / 采纳前请填写答案' }]);
    const created = await insertRow(policy, ctx, {
      shop_id: before.shop_id,
      title: question.slice(0, 200) || answer.slice(0, 200),
      content: answer,
      source_type: AUTO_LEARN_SOURCE,
      channel: v.channel ?? before.channel,
    });
    v.policy_id = created.id;
    v.reviewed_at = new Date().toISOString();
    v.reviewed_by = ctx.user?.id ?? null;
    await closeMaterial(ctx, before.material_id, 2, `adopted as policy #${String(created.id)} / 已采纳为知识 #${String(created.id)}`);
  }
}

/**
 * The ticket-learning state of the material a candidate came from, moved by the review: 2
 * (learned) on adoption, 0 (not learned, the reason in the note) on rejection. Only while the
 * material is still "learning" (1): a status someone set by hand since is left alone.
 */
async function closeMaterial(ctx: RouteContext, materialId: unknown, state: 0 | 2, note: string): Promise<void> {
  if (materialId === null || materialId === undefined) return;
  await ctx.db.query(
    `UPDATE learn_material SET ticket_learn = $2, ticket_learn_note = $3, updated_at = now() WHERE id = $1 AND ticket_learn = 1`,
    [materialId, state, note],
  );
}

/**
 * The validate hook of auto-learned product candidates: adopting one (status 1) writes its text
 * as the product's knowledge; an adopted one is final (the product description is edited on its
 * own page); rejecting needs no reason (the page has none) but is recorded with who and when.
 */
export async function reviewProductCandidate(v: Record<string, unknown>, ctx: RouteContext, mode: 'create' | 'update', before?: Row): Promise<void> {
  if (mode !== 'update' || !before) return;
  if (before.status === 1 && before.product_desc_id) {
    throw conflict(
      `this candidate was adopted into product description ${String(before.product_desc_id)}: edit it there / 该候选已采纳为商品知识，请在商品描述中修改`,
    );
  }
  if (v.status !== 1 && v.status !== 2) return;
  v.reviewed_at = new Date().toISOString();
  v.reviewed_by = ctx.user?.id ?? null;
  if (v.status === 2) return;
  const content = String(v.content ?? before.content ?? '').trim();
  if (!content) throw invalid([{ field: 'content', message: 'the product knowledge is empty / 采纳前请填写商品知识' }]);
  const title = String(v.product_title ?? before.product_title ?? '').trim() || String(before.product_id);
  const updated = await ctx.db.query<{ id: number }>(
    `UPDATE product_desc SET identified_desc = $3, updated_at = now()
      WHERE id = (SELECT id FROM product_desc WHERE shop_id = $1 AND product_id = $2 ORDER BY id LIMIT 1) RETURNING id`,
    [before.shop_id, before.product_id, content],
  );
  const id =
    updated.rows[0]?.id ??
    (
      await ctx.db.query<{ id: number }>(
        // status 2: identified (the text is a reviewed one)
        `INSERT INTO product_desc (shop_id, product_id, title, identified_desc, status) VALUES ($1, $2, $3, $4, 2) RETURNING id`,
        [before.shop_id, before.product_id, title.slice(0, 300), content],
      )
    ).rows[0].id;
  v.product_desc_id = Number(id);
}
