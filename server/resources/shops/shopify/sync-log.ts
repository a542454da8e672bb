/**
 * The sync log's platform side: what each sync of a connected shop brought in, record by record
 * (`GET shop-sync/items`: created, changed and failed records of one sync, or the webhooks of a
 * shop), and the one-line summary of a platform sync's figures (English / 中文).
 */
import { Type, type Static } from '@sinclair/typebox';
import { pageFields, pageReply, paged } from '../../../http/list.js';
import { route } from '../../../http/route.js';
import { Nullable, StringEnum } from '../../../http/typebox.js';
import { Id } from '../../engine/schemas.js';
import { dateTime, int, nint, PG, str } from '../../page-groups/keys.js';

const itemRow = Type.Object({
  id: int,
  job_id: nint,
  shop_id: int,
  via: str,
  entity: str,
  external_id: str,
  action: str,
  title: str,
  error: str,
  created_at: dateTime,
});

export const syncItemRoutes = [
  route({
    method: 'GET',
    path: 'shop-sync/items',
    access: { permission: [PG.syncLog, PG.syncSuccess, PG.syncFail] },
    summary: 'What a sync (job_id) or the webhooks of a shop (shop_id, via=webhook) brought in: each record created, changed or failed, newest first',
    query: Type.Object(
      {
        ...pageFields,
        job_id: Type.Optional(Id),
        shop_id: Type.Optional(Id),
        via: Type.Optional(StringEnum(['sync', 'webhook'] as const)),
        entity: Type.Optional(StringEnum(['product', 'order', 'policy'] as const)),
        action: Type.Optional(StringEnum(['created', 'updated', 'failed'] as const)),
      },
      { additionalProperties: false },
    ),
    reply: pageReply(itemRow),
    handler: (ctx) =>
      paged<Static<typeof itemRow>>(
        ctx.db,
        {
          select: 'i.id, i.job_id, i.shop_id, i.via, i.entity, i.external_id, i.action, i.title, i.error, i.created_at',
          fromWhere: `FROM shop_sync_item i WHERE ($1::bigint IS NULL OR i.job_id = $1::bigint) AND ($2::int IS NULL OR i.shop_id = $2::int)
                       AND ($3::text IS NULL OR i.via = $3::text) AND ($4::text IS NULL OR i.entity = $4::text) AND ($5::text IS NULL OR i.action = $5::text)`,
          orderBy: 'i.id DESC',
          params: [ctx.query.job_id ?? null, ctx.query.shop_id ?? null, ctx.query.via ?? null, ctx.query.entity ?? null, ctx.query.action ?? null],
        },
        ctx.query,
      ),
  }),
];

/** SELECT columns of a sync's platform figures (work_job j's result). */
export const PLATFORM_COLS = `j.result->>'source' AS source, j.result->>'shop_domain' AS shop_domain,
  (j.result->>'products')::int AS products, (j.result->>'policies')::int AS policies,
  (j.result->>'created')::int AS created, (j.result->>'updated')::int AS updated,
  (j.result->>'unchanged')::int AS unchanged, (j.result->>'failed')::int AS failed, (j.result->>'throttled')::int AS throttled`;

export const platformProps = {
  source: Nullable(str),
  shop_domain: Nullable(str),
  products: nint,
  policies: nint,
  created: nint,
  updated: nint,
  unchanged: nint,
  failed: nint,
  throttled: nint,
};

/** "Pulled from Shopify (sandbox): …" for a finished platform sync; null for a sync of ingested data. */
export function platformSummary(r: Record<string, unknown>): string | null {
  if (r.source !== 'shopify' && r.source !== 'sandbox') return null;
  const n = (k: string) => Number(r[k] ?? 0);
  const sandbox = r.source === 'sandbox';
  const en = `Pulled from Shopify${sandbox ? ' (sandbox)' : ''}: ${n('products')} products, ${n('orders')} orders, ${n('policies')} policies — ${n('created')} new, ${n('updated')} changed, ${n('unchanged')} unchanged, ${n('failed')} failed`;
  const zh = `已从 Shopify${sandbox ? '（沙箱）' : ''}拉取：商品 ${n('products')} 个、订单 ${n('orders')} 个、政策 ${n('policies')} 条——新增 ${n('created')}、变更 ${n('updated')}、未变 ${n('unchanged')}、失败 ${n('failed')}`;
  return `${en} / ${zh}`;
}
