/**
 * Reviewing auto-learn candidates (learn/autoLearnPolicy, `POST shop/learn-policy/update`):
 * - 采纳 (status 1) creates the shop policy (source type 5, auto-learn ticket) from the
 *   candidate's question and answer in the same transaction, and records it on the candidate;
 * - 拒绝 (status 2) needs a reason (`reject_reason`), kept with the candidate;
 * - an adopted candidate is final (its policy is edited in policy management).
 * Demo / older rows adopted before this (status 1, no policy) get their policy when adopted again.
 */
import { conflict, invalid } from '../http/errors.js';
import type { RouteContext } from '../http/route.js';
import { insertRow } from './engine/routes.js';
import type { ResourceDef, Row } from './engine/types.js';

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
  }
}
