/**
 * Sync message and log: `POST shop/sync` starts a `shop.sync` job of the work engine, whose rows
 * are the sync log (`GET shop-sync/list`, `GET shop-sync/detail`, also read by the result pages).
 * A shop connected to its platform (server/resources/shops/shopify) is pulled from it — Shopify's Admin
 * API or the built-in sandbox; a shop without a connection is counted from what the ingestion API
 * brought in, and the log says which (`source`: shopify | sandbox | ingested).
 */
import type { Queryable } from '../../db/db.js';
import { invalid, notFound } from '../../http/errors.js';
import { pageFields, pageReply, paged } from '../../http/list.js';
import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { Nullable, StringEnum } from '../../http/typebox.js';
import { PermanentJobError, type JobKind } from '../../jobs/types.js';
import { mustExist } from '../engine/refs.js';
import { Id, idQuery } from '../engine/schemas.js';
import { connectionRoutes, loadConnection } from '../shops/shopify/connection.js';
import { entitiesOf, runPlatformSync } from '../shops/shopify/sync-job.js';
import { PLATFORM_COLS, platformProps, platformSummary, syncItemRoutes } from '../shops/shopify/sync-log.js';
import { dateTime, int, nint, nstr, PG, str } from './keys.js';

export const SYNC_KIND = 'shop.sync';
export const SYNC_SCOPES = ['messages', 'orders', 'products', 'policies', 'all'] as const;
type SyncScope = (typeof SYNC_SCOPES)[number];
const SYNC_DEFAULTS: { scope: SyncScope; days: number } = { scope: 'all', days: 7 };
interface SyncData {
  shopId: number;
  scope: SyncScope;
  days: number;
}

const count = async (q: Queryable, sql: string, params: unknown[]) => Number((await q.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0);

/**
 * Syncs a shop. Connected to its platform (shop_connection): policies, products and orders are
 * pulled through its adapter (server/resources/shops/shopify/sync-job.ts: paged, throttled, resumable,
 * incremental). Not connected: the platform's records reach this database through the ingestion
 * API (server/ingest), so the job checks the shop can be synced (it exists and has authorized the
 * platform) and counts what the window holds. Messages always come through the ingestion API.
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
    const out: Record<string, unknown> = { shop_id: shop.id, shop_name: shop.name, scope, days, since: since.toISOString(), source: 'ingested' };
    const conn = await loadConnection(ctx.db, shopId);
    const pulled = conn ? entitiesOf(scope) : [];
    if (conn && pulled.length) {
      const p = await runPlatformSync(ctx, conn, pulled);
      const sum = (k: 'received' | 'created' | 'updated' | 'unchanged' | 'failed') => Object.values(p.counts).reduce((n, c) => n + (c?.[k] ?? 0), 0);
      Object.assign(out, {
        source: p.sandbox ? 'sandbox' : p.platform,
        shop_domain: p.shop_domain,
        counts: p.counts,
        products: p.counts.product?.received ?? (pulled.includes('product') ? 0 : null),
        policies: p.counts.policy?.received ?? (pulled.includes('policy') ? 0 : null),
        orders: p.counts.order?.received ?? (pulled.includes('order') ? 0 : null),
        created: sum('created'),
        updated: sum('updated'),
        unchanged: sum('unchanged'),
        failed: sum('failed'),
        pages: p.pages,
        throttled: p.throttled,
      });
      if (scope !== 'all') return out;
    }
    if (scope === 'products' || scope === 'policies') {
      throw new PermanentJobError('products and policies are pulled from a connected platform only: connect the shop first / 商品与政策只能从已连接的平台拉取，请先连接店铺');
    }
    const steps = scope === 'all' && out.source === 'ingested' ? 2 : 1;
    await ctx.progress(0, steps);
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
    if (scope !== 'messages' && out.source === 'ingested') {
      out.orders = await count(ctx.db, `SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1 AND created_at >= $2`, [shopId, since]);
      await ctx.progress(++done, steps);
    }
    return out;
  },
};

const SYNC_COLS = `j.id, j.ref_id::int AS shop_id, s.name AS shop_name, s.type::int AS shop_type, j.data->>'scope' AS scope, (j.data->>'days')::int AS days,
  j.state, CASE WHEN j.progress_total > 0 THEN least(100, j.progress_done * 100 / j.progress_total) WHEN j.state = 'done' THEN 100 ELSE 0 END AS progress,
  j.attempts, j.last_error,
  (j.result->>'chat_sessions')::int AS chat_sessions, (j.result->>'chat_messages')::int AS chat_messages,
  (j.result->>'mail_sessions')::int AS mail_sessions, (j.result->>'orders')::int AS orders,
  ${PLATFORM_COLS},
  a.name AS created_by_name, j.created_at, j.started_at, j.finished_at,
  CASE WHEN j.finished_at IS NOT NULL AND j.started_at IS NOT NULL
       THEN (extract(epoch FROM j.finished_at - j.started_at) * 1000)::int END AS duration_ms`;
const SYNC_FROM = `FROM work_job j LEFT JOIN shop s ON s.id = j.ref_id LEFT JOIN accounts a ON a.id = j.created_by WHERE j.kind = '${SYNC_KIND}'`;
const syncRow = Type.Object({
  id: int,
  shop_id: nint,
  shop_name: nstr,
  shop_type: nint,
  scope: nstr,
  days: nint,
  state: str,
  progress: int,
  attempts: int,
  last_error: str,
  chat_sessions: nint,
  chat_messages: nint,
  mail_sessions: nint,
  orders: nint,
  ...platformProps,
  created_by_name: nstr,
  created_at: dateTime,
  started_at: Nullable(dateTime),
  finished_at: Nullable(dateTime),
  duration_ms: nint,
});
type SyncRow = Static<typeof syncRow>;

/** What the result page says in one line (English / 中文; the console shows its language's half). */
function summary(r: Record<string, unknown>): string {
  if (r.state === 'failed') return String(r.last_error || 'the sync failed / 同步失败');
  if (r.state === 'cancelled') return 'the sync was cancelled / 同步已取消';
  if (r.state !== 'done') return 'the sync is still running / 同步进行中';
  const platform = platformSummary(r);
  if (platform) return platform;
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
  // Douyin shops are never pulled from their platform (server/shops/douyin.ts): the page says so
  const douyin = Number(r.shop_type) === 2;
  const enNote = douyin ? ' — Douyin shops are not pulled from the platform (not implemented, docs/integrations.md): these came through the ingestion API' : '';
  const zhNote = douyin ? '——抖音店铺不从平台拉取（未实现，见 docs/integrations.md），以上数据经数据接入 API 推送' : '';
  return `Synced ${en.join(' and ')} of the last ${String(r.days)} days${enNote} / 已同步近 ${String(r.days)} 天的${zh.join('和')}${zhNote}`;
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


export const syncRoutes: RouteDef[] = [
  ...connectionRoutes,
  ...syncItemRoutes,
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
    reply: Type.Object({ job_id: int, shop_id: int }),
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
      paged<SyncRow>(
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
    reply: Type.Object({ ...syncRow.properties, summary: str, advice: str, succeeded: Type.Boolean() }),
    handler: async (ctx) => {
      const { id } = ctx.query;
      const r = (await ctx.db.query<SyncRow>(`SELECT ${SYNC_COLS} ${SYNC_FROM} AND j.id = $1`, [id])).rows[0];
      if (!r) throw notFound(`sync ${id}`);
      return { ...r, summary: summary(r), advice: advice(r), succeeded: r.state === 'done' };
    },
  }),
];
