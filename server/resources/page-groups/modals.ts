/**
 * Renew detail (`GET plan-order/renew-detail`, an order with the order it renews) and the modals:
 * `GET policy/versions`, `GET session/dialogue`, `GET session/message-extra`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { notFound } from '../../http/errors.js';
import { route, type RouteDef } from '../../http/route.js';
import { Nullable, StringEnum } from '../../http/typebox.js';
import { idQuery } from '../engine/schemas.js';
import { K } from '../keys.js';
import { dateTime, int, nint, nstr, PG, str } from './keys.js';

const AI_TYPES = [2, 6, 10, 11, 12, 13];
const roleOf = (t: number): string => (t === 1 || t === 9 ? 'customer' : t === 4 || t === 7 ? 'agent' : AI_TYPES.includes(t) ? 'ai' : 'system');

/** A rough token count (no tokenizer is shipped): one per CJK character, one per four other characters. */
export function estimateTokens(text: string): number {
  const cjk = (text.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g) ?? []).length;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

const RenewDetail = Type.Object({
  id: int,
  order_no: str,
  user_id: int,
  user_name: nstr,
  shop_id: nint,
  shop_name: nstr,
  plan_id: int,
  plan_name: str,
  plan_period: str,
  amount: Type.Number(),
  currency: str,
  status: int,
  start_at: dateTime,
  end_at: dateTime,
  period_days: int,
  remark: str,
  renewal_kind: StringEnum(['first', 'same_plan', 'upgrade', 'downgrade']),
  previous_id: nint,
  previous_order_no: nstr,
  previous_plan_name: nstr,
  previous_amount: Nullable(Type.Number()),
  previous_end_at: Nullable(dateTime),
  gap_days: nint,
  previous_note: str,
  log_count: int,
});
type RenewDetail = Static<typeof RenewDetail>;

export const modalRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: 'plan-order/renew-detail',
    access: { permission: [K.planOrder, PG.renew] },
    summary: 'A plan order as a renewal: its plan and shop, the order it renews (the same user and shop, started before it), the gap and the change of plan',
    query: idQuery,
    reply: RenewDetail,
    handler: async (ctx) => {
      const { id } = ctx.query;
      const o = (
        await ctx.db.query<Omit<RenewDetail, `previous_${string}` | 'renewal_kind' | 'gap_days'>>(
          `SELECT o.id, o.order_no, o.user_id, u.name AS user_name, o.shop_id, s.name AS shop_name, o.plan_id, p.name AS plan_name,
                  p.period AS plan_period, o.amount::float8 AS amount, o.currency, o.status, o.start_at, o.end_at, o.remark,
                  round(extract(epoch FROM o.end_at - o.start_at) / 86400)::int AS period_days,
                  (SELECT count(*)::int FROM plan_order_log l WHERE l.plan_order_id = o.id) AS log_count
             FROM plan_order o JOIN plan p ON p.id = o.plan_id
             LEFT JOIN merchant_user u ON u.id = o.user_id LEFT JOIN shop s ON s.id = o.shop_id
            WHERE o.id = $1`,
          [id],
        )
      ).rows[0];
      if (!o) throw notFound(`plan order ${id}`);
      const prev = (
        await ctx.db.query<{ id: number; order_no: string; plan_name: string; amount: number; end_at: string; plan_price: number; gap_days: number }>(
          `SELECT o.id, o.order_no, p.name AS plan_name, o.amount::float8 AS amount, o.end_at, p.price::float8 AS plan_price,
                  round(extract(epoch FROM $4::timestamptz - o.end_at) / 86400)::int AS gap_days
             FROM plan_order o JOIN plan p ON p.id = o.plan_id
            WHERE o.id <> $1 AND o.user_id = $2 AND o.shop_id IS NOT DISTINCT FROM $3 AND o.start_at < $4
            ORDER BY o.start_at DESC, o.id DESC LIMIT 1`,
          [id, o.user_id, o.shop_id, o.start_at],
        )
      ).rows[0];
      let kind: RenewDetail['renewal_kind'] = 'first';
      if (prev) {
        const price = Number((await ctx.db.query<{ p: number }>(`SELECT price::float8 AS p FROM plan WHERE id = $1`, [o.plan_id])).rows[0]?.p ?? 0);
        kind = Number(o.plan_id) === Number((await ctx.db.query<{ plan_id: number }>(`SELECT plan_id FROM plan_order WHERE id = $1`, [prev.id])).rows[0]?.plan_id)
          ? 'same_plan'
          : price >= Number(prev.plan_price) ? 'upgrade' : 'downgrade';
      }
      return {
        ...o,
        renewal_kind: kind,
        previous_id: prev?.id ?? null,
        previous_order_no: prev?.order_no ?? null,
        previous_plan_name: prev?.plan_name ?? null,
        previous_amount: prev?.amount ?? null,
        previous_end_at: prev?.end_at ?? null,
        gap_days: prev?.gap_days ?? null,
        previous_note: prev
          ? ''
          : 'The first order of this merchant for this shop: it renews nothing / 该商户在此店铺的第一笔订单，无可续费的前一订单',
      };
    },
  }),
  route({
    method: 'GET',
    path: 'policy/versions',
    access: { permission: [K.policy, K.storePolicy] },
    summary: "A policy's versions: the current one, then every recorded change (audit rows, newest first, at most 100)",
    query: idQuery,
    reply: Type.Object({
      id: int,
      title: str,
      total: int,
      list: Type.Array(Type.Object({ version: int, action: str, created_at: dateTime, actor_email: str, changes: Type.Unknown() })),
    }),
    handler: async (ctx) => {
      const { id } = ctx.query;
      const p = (
        await ctx.db.query<{ id: number; title: string; content: string; status: number; channel: string; updated_at: string }>(
          `SELECT id, title, content, status, channel, updated_at FROM policy WHERE id = $1`,
          [id],
        )
      ).rows[0];
      if (!p) throw notFound(`policy ${id}`);
      const audits = (
        await ctx.db.query<{ action: string; created_at: string; actor_email: string; after: unknown; before: unknown }>(
          `SELECT action, created_at, actor_email, after, before FROM audit_logs
            WHERE resource = 'policy' AND target_id = $1 ORDER BY created_at DESC, id DESC LIMIT 100`,
          [String(id)],
        )
      ).rows;
      const total = audits.length + 1;
      const list = [
        {
          version: total,
          action: 'current',
          created_at: p.updated_at,
          actor_email: audits[0]?.actor_email ?? '',
          changes: { title: p.title, content: p.content, status: p.status, channel: p.channel },
        },
        ...audits.map((a, i) => ({
          version: total - 1 - i,
          action: a.action,
          created_at: a.created_at,
          actor_email: a.actor_email,
          changes: a.action === 'delete' ? a.before : a.after,
        })),
      ];
      return { id: p.id, title: p.title, total, list };
    },
  }),
  route({
    method: 'GET',
    path: 'session/dialogue',
    access: { permission: [PG.chat, PG.mark, PG.feedback, PG.profileAdvanced] },
    summary: "A chat session's dialogue for the dialogue modal: each message with its role (customer, ai, agent, system) and time from the start",
    query: idQuery,
    reply: Type.Object({
      id: int,
      shop_name: nstr,
      customer_name: str,
      channel: str,
      started_at: dateTime,
      message_count: int,
      messages: Type.Array(Type.Object({ id: int, role: str, msg_type: int, sender: str, content: str, offset_ms: int })),
    }),
    handler: async (ctx) => {
      const { id } = ctx.query;
      const s = (
        await ctx.db.query<{ id: number; shop_name: string | null; customer_name: string; channel: string; started_at: string }>(
          `SELECT c.id, sh.name AS shop_name, c.customer_name, c.channel, c.started_at FROM chat_session c LEFT JOIN shop sh ON sh.id = c.shop_id WHERE c.id = $1`,
          [id],
        )
      ).rows[0];
      if (!s) throw notFound(`session ${id}`);
      const m = await ctx.db.query<{ id: number; msg_type: number; sender: string; content: string; offset_ms: number }>(
        `SELECT id, msg_type, sender, content,
                greatest(0, (extract(epoch FROM sent_at - min(sent_at) OVER ()) * 1000))::int AS offset_ms
           FROM chat_message WHERE session_id = $1 ORDER BY sent_at, id LIMIT 2000`,
        [id],
      );
      const messages = m.rows.map((r) => ({ ...r, role: roleOf(Number(r.msg_type)) }));
      return { ...s, message_count: messages.length, messages };
    },
  }),
  route({
    method: 'GET',
    path: 'session/message-extra',
    access: { permission: [PG.chat, PG.mark, PG.feedback] },
    summary:
      'The extra data of one AI reply: the question it answered, the knowledge it cited, the latency (question to reply) and the tokens (estimated: live replies keep no model call)',
    query: idQuery,
    reply: Type.Object({
      id: int,
      session_id: int,
      shop_name: nstr,
      msg_type: int,
      content: str,
      sent_at: dateTime,
      question: nstr,
      latency_ms: nint,
      policy_id: nint,
      policy_title: nstr,
      policy_content: nstr,
      policy_source_type: nint,
      prompt_tokens: int,
      completion_tokens: int,
      total_tokens: int,
      tokens_estimated: Type.Boolean(),
      responder: str,
    }),
    handler: async (ctx) => {
      const { id } = ctx.query;
      const m = (
        await ctx.db.query<{
          id: number;
          session_id: number;
          shop_name: string | null;
          msg_type: number;
          content: string;
          sent_at: string;
          policy_id: number | null;
          policy_title: string | null;
          policy_content: string | null;
          policy_source_type: number | null;
        }>(
          `SELECT m.id, m.session_id, sh.name AS shop_name, m.msg_type, m.content, m.sent_at, m.policy_id,
                  p.title AS policy_title, p.content AS policy_content, p.source_type AS policy_source_type
             FROM chat_message m JOIN chat_session c ON c.id = m.session_id LEFT JOIN shop sh ON sh.id = c.shop_id
             LEFT JOIN policy p ON p.id = m.policy_id
            WHERE m.id = $1`,
          [id],
        )
      ).rows[0];
      if (!m) throw notFound(`message ${id}`);
      const q = (
        await ctx.db.query<{ content: string; latency_ms: number }>(
          `SELECT content, (extract(epoch FROM $3::timestamptz - sent_at) * 1000)::int AS latency_ms FROM chat_message
            WHERE session_id = $1 AND msg_type = 1 AND (sent_at < $3 OR (sent_at = $3 AND id < $2))
            ORDER BY sent_at DESC, id DESC LIMIT 1`,
          [m.session_id, m.id, m.sent_at],
        )
      ).rows[0];
      const prompt = estimateTokens(`${q?.content ?? ''}\n${m.policy_content ?? ''}`);
      const completion = estimateTokens(m.content);
      return {
        ...m,
        question: q?.content ?? null,
        latency_ms: q ? q.latency_ms : null,
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        tokens_estimated: true,
        responder: AI_TYPES.includes(Number(m.msg_type)) ? 'ai' : roleOf(Number(m.msg_type)),
      };
    },
  }),
];
