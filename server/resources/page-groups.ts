/**
 * The "other page groups" of spec section 2 that had no server side yet (docs/modules/page-groups.md):
 * - template management: `reply-template/*` (reply and notification templates, migration 0020);
 * - sync message and log: `POST shop/sync` starts a `shop.sync` job of the work engine, whose rows
 *   are the sync log (`GET shop-sync/list`, `GET shop-sync/detail`, also read by the result pages);
 * - renew detail: `GET plan-order/renew-detail` (an order with the order it renews);
 * - the modals: `GET policy/versions`, `GET session/dialogue`, `GET session/message-extra`.
 */
import type { Queryable } from '../db/db.js';
import { invalid, notFound } from '../http/errors.js';
import { pageFields, pageReply, paged } from '../http/list.js';
import { Type } from '@sinclair/typebox';
import { route, type RouteDef } from '../http/route.js';
import { StringEnum } from '../http/typebox.js';
import { PermanentJobError, type JobKind } from '../jobs/types.js';
import { F } from './engine/fields.js';
import { mustExist } from './engine/refs.js';
import { ID, Id, idQuery } from './engine/schemas.js';
import type { ResourceDef } from './engine/types.js';
import { K } from './keys.js';

const T = 'intelligent_text.text';
export const PG = {
  template: `${T}.merchant_notice.template`,
  templateAdd: `${T}.merchant_notice.template.add`,
  templateUpdate: `${T}.merchant_notice.template.update`,
  templateDelete: `${T}.merchant_notice.template.delete`,
  shopSync: `${T}.shop.list.sync`,
  profileBasic: `${T}.shop.list.profile_basic`,
  profileAdvanced: `${T}.shop.list.profile_advanced`,
  syncLog: `${T}.shop.sync_log`,
  syncSuccess: `${T}.shop.sync_log.success`,
  syncFail: `${T}.shop.sync_log.fail`,
  renew: `${T}.shop.plan_order.renew`,
  chat: `${T}.session.chat`,
  mark: `${T}.session.mark`,
  feedback: `${T}.session.feedback`,
} as const;

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

export const SYNC_KIND = 'shop.sync';
export const SYNC_SCOPES = ['messages', 'orders', 'all'] as const;
type SyncScope = (typeof SYNC_SCOPES)[number];
const SYNC_DEFAULTS: { scope: SyncScope; days: number } = { scope: 'all', days: 7 };
interface SyncData {
  shopId: number;
  scope: SyncScope;
  days: number;
}

const count = async (q: Queryable, sql: string, params: unknown[]) => Number((await q.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0);

/**
 * Pulls a shop's messages and / or orders of the last `days` days from its platform. The demo has
 * no platform connection: the platform's records reach this database through the ingestion API
 * (server/ingest), so the job checks the shop can be synced (it exists and has authorized the
 * platform) and counts what the window holds — the figures a pull writes through the same path.
 * A shop that has not authorized (or whose authorization expired) fails at once: retrying cannot help.
 */
export const shopSyncKind: JobKind<SyncData> = {
  kind: SYNC_KIND,
  title: (d) => `Sync shop ${d.shopId} (${d.scope}) / 同步店铺 ${d.shopId}`,
  maxAttempts: 2,
  async run(ctx) {
    const { shopId, scope, days } = ctx.job.data;
    const shop = (
      await ctx.db.query<{ id: number; name: string; authorize_status: number }>(`SELECT id, name, authorize_status FROM shop WHERE id = $1`, [shopId])
    ).rows[0];
    if (!shop) throw new PermanentJobError(`shop ${shopId} no longer exists / 店铺 ${shopId} 已不存在`);
    if (Number(shop.authorize_status) !== 1) {
      throw new PermanentJobError(
        Number(shop.authorize_status) === 2
          ? `the shop's platform authorization has expired: ask the merchant to authorize again / 店铺的平台授权已过期，请商户重新授权`
          : `the shop has not authorized the platform: nothing can be pulled / 店铺尚未授权平台，无法拉取数据`,
      );
    }
    const since = new Date(ctx.now().getTime() - days * 86_400_000);
    const steps = scope === 'all' ? 2 : 1;
    await ctx.progress(0, steps);
    const out: Record<string, unknown> = { shop_id: shop.id, shop_name: shop.name, scope, days, since: since.toISOString() };
    let done = 0;
    if (scope !== 'orders') {
      out.chat_sessions = await count(ctx.db, `SELECT count(*)::int AS n FROM chat_session WHERE shop_id = $1 AND started_at >= $2`, [shopId, since]);
      out.chat_messages = await count(
        ctx.db,
        `SELECT count(*)::int AS n FROM chat_message m JOIN chat_session s ON s.id = m.session_id WHERE s.shop_id = $1 AND m.sent_at >= $2`,
        [shopId, since],
      );
      out.mail_sessions = await count(ctx.db, `SELECT count(*)::int AS n FROM mail_session WHERE shop_id = $1 AND started_at >= $2`, [shopId, since]);
      await ctx.progress(++done, steps);
    }
    if (scope !== 'messages') {
      out.orders = await count(ctx.db, `SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1 AND created_at >= $2`, [shopId, since]);
      await ctx.progress(++done, steps);
    }
    return out;
  },
};

const SYNC_COLS = `j.id, j.ref_id::int AS shop_id, s.name AS shop_name, j.data->>'scope' AS scope, (j.data->>'days')::int AS days,
  j.state, CASE WHEN j.progress_total > 0 THEN least(100, j.progress_done * 100 / j.progress_total) WHEN j.state = 'done' THEN 100 ELSE 0 END AS progress,
  j.attempts, j.last_error,
  (j.result->>'chat_sessions')::int AS chat_sessions, (j.result->>'chat_messages')::int AS chat_messages,
  (j.result->>'mail_sessions')::int AS mail_sessions, (j.result->>'orders')::int AS orders,
  a.name AS created_by_name, j.created_at, j.started_at, j.finished_at,
  CASE WHEN j.finished_at IS NOT NULL AND j.started_at IS NOT NULL
       THEN (extract(epoch FROM j.finished_at - j.started_at) * 1000)::int END AS duration_ms`;
const SYNC_FROM = `FROM work_job j LEFT JOIN shop s ON s.id = j.ref_id LEFT JOIN accounts a ON a.id = j.created_by WHERE j.kind = '${SYNC_KIND}'`;
const nint = { type: ['integer', 'null'] };
const nstr = { type: ['string', 'null'] };
const syncRow = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    shop_id: nint,
    shop_name: nstr,
    scope: nstr,
    days: nint,
    state: { type: 'string' },
    progress: { type: 'integer' },
    attempts: { type: 'integer' },
    last_error: { type: 'string' },
    chat_sessions: nint,
    chat_messages: nint,
    mail_sessions: nint,
    orders: nint,
    created_by_name: nstr,
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: ['string', 'null'], format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    duration_ms: nint,
  },
};

/** What the result page says in one line (English / 中文; the console shows its language's half). */
function summary(r: Record<string, unknown>): string {
  if (r.state === 'failed') return String(r.last_error || 'the sync failed / 同步失败');
  if (r.state === 'cancelled') return 'the sync was cancelled / 同步已取消';
  if (r.state !== 'done') return 'the sync is still running / 同步进行中';
  const en: string[] = [];
  const zh: string[] = [];
  if (r.chat_sessions !== null && r.chat_sessions !== undefined) {
    en.push(`${String(r.chat_sessions)} chat sessions (${String(r.chat_messages)} messages), ${String(r.mail_sessions)} mail sessions`);
    zh.push(`${String(r.chat_sessions)} 个聊天会话（${String(r.chat_messages)} 条消息）、${String(r.mail_sessions)} 个邮件会话`);
  }
  if (r.orders !== null && r.orders !== undefined) {
    en.push(`${String(r.orders)} orders`);
    zh.push(`${String(r.orders)} 个订单`);
  }
  return `Synced ${en.join(' and ')} of the last ${String(r.days)} days / 已同步近 ${String(r.days)} 天的${zh.join('和')}`;
}

/** What to do after a failed or cancelled sync (English / 中文). */
function advice(r: Record<string, unknown>): string {
  if (r.state === 'done') return 'Nothing to do: the records are in the session and order lists / 无需处理：记录已在会话与订单列表中';
  if (r.state === 'cancelled') return 'Start the sync again when you are ready / 准备好后可重新发起同步';
  if (r.state !== 'failed') return 'Wait for the sync to finish / 请等待同步完成';
  const e = String(r.last_error ?? '');
  if (e.includes('authoriz')) return 'Ask the merchant to authorize the platform for this shop, then sync again / 请商户为该店铺完成平台授权后再同步';
  if (e.includes('no longer exists')) return 'The shop was deleted: nothing to sync / 店铺已删除，无需同步';
  return 'Try again; if it fails again, open the Jobs page for the attempts and the error / 请重试；若仍失败，请在任务页查看重试记录与错误';
}

// ---------------------------------------------------------------- helpers for the modals

const AI_TYPES = [2, 6, 10, 11, 12, 13];
const roleOf = (t: number): string => (t === 1 || t === 9 ? 'customer' : t === 4 || t === 7 ? 'agent' : AI_TYPES.includes(t) ? 'ai' : 'system');

/** A rough token count (no tokenizer is shipped): one per CJK character, one per four other characters. */
export function estimateTokens(text: string): number {
  const cjk = (text.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g) ?? []).length;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

export const pageGroupRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: 'shop/sync',
    access: { permission: PG.shopSync },
    summary: "Start syncing a shop's messages and / or orders of the last `days` days from its platform (a shop.sync job; the reply names it)",
    body: Type.Object(
      {
        shop_id: Id,
        scope: Type.Optional(StringEnum(SYNC_SCOPES, { default: SYNC_DEFAULTS.scope })),
        days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: SYNC_DEFAULTS.days })),
      },
      { additionalProperties: false },
    ),
    reply: { type: 'object', properties: { job_id: { type: 'integer' }, shop_id: { type: 'integer' } } },
    handler: async (ctx) => {
      // validation fills in the defaults; TypeBox still types the two as optional
      const b = { ...SYNC_DEFAULTS, ...ctx.body };
      await mustExist(ctx.db, 'shop', b.shop_id, 'shop_id');
      const live = await ctx.db.query(
        `SELECT 1 FROM work_job WHERE kind = $1 AND ref_type = 'shop' AND ref_id = $2 AND state IN ('queued', 'running')`,
        [SYNC_KIND, b.shop_id],
      );
      if (live.rows.length) throw invalid([{ field: 'shop_id', message: 'this shop is being synced already / 该店铺正在同步中' }]);
      const job = await ctx.req.server.jobs.enqueue(ctx.db, SYNC_KIND, { shopId: b.shop_id, scope: b.scope, days: b.days } satisfies SyncData, {
        createdBy: ctx.user?.id ?? null,
        ref: { type: 'shop', id: b.shop_id },
      });
      await ctx.audit({ action: 'sync', resource: 'shop', targetId: b.shop_id, after: { scope: b.scope, days: b.days, job_id: job.id } });
      return { job_id: job.id, shop_id: b.shop_id };
    },
  }),
  route({
    method: 'GET',
    path: 'shop-sync/list',
    access: { permission: PG.syncLog },
    summary: 'The sync log: shop.sync jobs, newest first, with what each pulled; filter by shop and state',
    query: Type.Object(
      {
        ...pageFields,
        shop_id: Type.Optional(Id),
        state: Type.Optional(Type.String({ enum: ['queued', 'running', 'done', 'failed', 'cancelled'] })),
      },
      { additionalProperties: false },
    ),
    reply: pageReply(syncRow),
    handler: (ctx) =>
      paged(
        ctx.db,
        {
          select: SYNC_COLS,
          fromWhere: `${SYNC_FROM} AND ($1::bigint IS NULL OR j.ref_id = $1::bigint) AND ($2::text IS NULL OR j.state = $2::text)`,
          orderBy: 'j.id DESC',
          params: [ctx.query.shop_id ?? null, ctx.query.state ?? null],
        },
        ctx.query,
      ),
  }),
  route({
    method: 'GET',
    path: 'shop-sync/detail',
    access: { permission: [PG.syncLog, PG.syncSuccess, PG.syncFail] },
    summary: 'One sync with its figures and a one-line summary (English / 中文), for the success and fail result pages',
    query: idQuery,
    reply: { type: 'object', properties: { ...syncRow.properties, summary: { type: 'string' }, advice: { type: 'string' }, succeeded: { type: 'boolean' } } },
    handler: async (ctx) => {
      const { id } = ctx.query;
      const r = (await ctx.db.query<Record<string, unknown>>(`SELECT ${SYNC_COLS} ${SYNC_FROM} AND j.id = $1`, [id])).rows[0];
      if (!r) throw notFound(`sync ${id}`);
      return { ...r, summary: summary(r), advice: advice(r), succeeded: r.state === 'done' };
    },
  }),
  route({
    method: 'GET',
    path: 'plan-order/renew-detail',
    access: { permission: [K.planOrder, PG.renew] },
    summary: 'A plan order as a renewal: its plan and shop, the order it renews (the same user and shop, started before it), the gap and the change of plan',
    query: idQuery,
    reply: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        order_no: { type: 'string' },
        user_id: { type: 'integer' },
        user_name: nstr,
        shop_id: nint,
        shop_name: nstr,
        plan_id: { type: 'integer' },
        plan_name: { type: 'string' },
        plan_period: { type: 'string' },
        amount: { type: 'number' },
        currency: { type: 'string' },
        status: { type: 'integer' },
        start_at: { type: 'string', format: 'date-time' },
        end_at: { type: 'string', format: 'date-time' },
        period_days: { type: 'integer' },
        remark: { type: 'string' },
        renewal_kind: { type: 'string', enum: ['first', 'same_plan', 'upgrade', 'downgrade'] },
        previous_id: nint,
        previous_order_no: nstr,
        previous_plan_name: nstr,
        previous_amount: { type: ['number', 'null'] },
        previous_end_at: { type: ['string', 'null'], format: 'date-time' },
        gap_days: nint,
        previous_note: { type: 'string' },
        log_count: { type: 'integer' },
      },
    },
    handler: async (ctx) => {
      const { id } = ctx.query;
      const o = (
        await ctx.db.query<Record<string, unknown>>(
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
      let kind = 'first';
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
    reply: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        title: { type: 'string' },
        total: { type: 'integer' },
        list: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              version: { type: 'integer' },
              action: { type: 'string' },
              created_at: { type: 'string', format: 'date-time' },
              actor_email: { type: 'string' },
              changes: {},
            },
          },
        },
      },
    },
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
    reply: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        shop_name: nstr,
        customer_name: { type: 'string' },
        channel: { type: 'string' },
        started_at: { type: 'string', format: 'date-time' },
        message_count: { type: 'integer' },
        messages: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              role: { type: 'string' },
              msg_type: { type: 'integer' },
              sender: { type: 'string' },
              content: { type: 'string' },
              offset_ms: { type: 'integer' },
            },
          },
        },
      },
    },
    handler: async (ctx) => {
      const { id } = ctx.query;
      const s = (
        await ctx.db.query<Record<string, unknown>>(
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
    reply: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        session_id: { type: 'integer' },
        shop_name: nstr,
        msg_type: { type: 'integer' },
        content: { type: 'string' },
        sent_at: { type: 'string', format: 'date-time' },
        question: nstr,
        latency_ms: nint,
        policy_id: nint,
        policy_title: nstr,
        policy_content: nstr,
        policy_source_type: nint,
        prompt_tokens: { type: 'integer' },
        completion_tokens: { type: 'integer' },
        total_tokens: { type: 'integer' },
        tokens_estimated: { type: 'boolean' },
        responder: { type: 'string' },
      },
    },
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
