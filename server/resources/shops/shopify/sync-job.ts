/**
 * The platform part of a `shop.sync` job (server/resources/page-groups/sync.ts) for a connected
 * shop: policies, products and orders pulled page by page through the shop's adapter.
 *
 * Resumable and exact: each page's records, the items of the sync log, the figures and the
 * cursor after the page are written in ONE transaction (shop_sync_state, keyed by the job). A
 * process killed mid-sync leaves the last committed page as the place to go on from; the job
 * delivered again reads it and asks for the next page, so no record is lost and none is counted
 * twice. A kind's watermark (shop_connection.<kind>_synced_to: the newest updatedAt pulled) moves
 * when the kind is complete, so the next sync asks only for records changed since.
 */
import type { Queryable } from '../../../db/db.js';
import { PermanentJobError, type JobContext } from '../../../jobs/types.js';
import { adapterFor } from '../../../shops/index.js';
import { PlatformRefused, type Entity } from '../../../shops/types.js';
import { openConnection, type ConnectionRow } from './connection.js';
import { noteItem, writeRecord, type WriteOutcome } from './records.js';

export interface EntityCounts {
  received: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}
type Counts = Partial<Record<Entity, EntityCounts>>;

interface StateRow {
  phase: string;
  cursor: string | null;
  since: Partial<Record<Entity, string | null>>;
  high: Partial<Record<Entity, string>>;
  counts: Counts;
  pages: number;
  throttled: number;
}

const WATERMARK: Record<Entity, 'products_synced_to' | 'orders_synced_to' | 'policies_synced_to'> = {
  product: 'products_synced_to',
  order: 'orders_synced_to',
  policy: 'policies_synced_to',
};
const zero = (): EntityCounts => ({ received: 0, created: 0, updated: 0, unchanged: 0, failed: 0 });
const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

/** The kinds a scope pulls from a platform (messages never come from a shop platform). */
export function entitiesOf(scope: string): Entity[] {
  if (scope === 'all') return ['policy', 'product', 'order'];
  if (scope === 'orders') return ['order'];
  if (scope === 'products') return ['product'];
  if (scope === 'policies') return ['policy'];
  return [];
}

async function loadState(q: Queryable, jobId: number): Promise<StateRow | null> {
  return (await q.query<StateRow>(`SELECT phase, cursor, since, high, counts, pages, throttled FROM shop_sync_state WHERE job_id = $1`, [jobId])).rows[0] ?? null;
}

export interface PlatformResult {
  platform: string;
  sandbox: boolean;
  shop_domain: string;
  counts: Counts;
  pages: number;
  throttled: number;
}

/**
 * Pulls `entities` of the connected shop; returns the figures. A refusal of the platform (token,
 * unsupported platform) fails the job at once; an outage fails this attempt (the engine retries,
 * and the retry goes on from the last page).
 */
export async function runPlatformSync(ctx: JobContext<{ shopId: number; days: number }>, row: ConnectionRow, entities: Entity[]): Promise<PlatformResult> {
  const { shopId, days } = ctx.job.data;
  const jobId = ctx.job.id;
  if (row.status !== 'connected') throw new PermanentJobError('the Shopify app was uninstalled from this shop: connect it again / 该店铺已卸载 Shopify 应用，请重新连接');
  const adapter = adapterFor(openConnection(row));
  const defaultOrdersSince = new Date(ctx.now().getTime() - days * 86_400_000).toISOString();
  await ctx.db.query(
    `INSERT INTO shop_sync_state (job_id, shop_id, phase, since) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT (job_id) DO NOTHING`,
    [jobId, shopId, entities[0] ?? 'done', JSON.stringify({ product: iso(row.products_synced_to), order: iso(row.orders_synced_to) ?? defaultOrdersSince, policy: null })],
  );
  let state = (await loadState(ctx.db, jobId))!;
  const startAt = entities.indexOf(state.phase as Entity);
  let done = Object.values(state.counts).reduce((n, c) => n + (c?.received ?? 0), 0);
  let throttledSeen = 0;
  try {
    for (let i = startAt < 0 ? entities.length : startAt; i < entities.length; i++) {
      const entity = entities[i];
      let cursor = state.phase === entity ? state.cursor : null;
      for (;;) {
        await ctx.checkpoint();
        const page = await adapter.pull(entity, { cursor, since: state.since[entity] ?? null, signal: ctx.signal });
        const newThrottles = adapter.throttled - throttledSeen;
        throttledSeen = adapter.throttled;
        const committed = await ctx.db.tx(async (q) => {
          // the row is the lock: a second delivery of this job (the engine prevents it) would find another cursor and stop
          const cur = (await q.query<StateRow>(`SELECT phase, cursor, since, high, counts, pages, throttled FROM shop_sync_state WHERE job_id = $1 FOR UPDATE`, [jobId])).rows[0];
          if (!cur || cur.phase !== entity || (cur.cursor ?? null) !== (cursor ?? null)) return null;
          const counts: Counts = { ...cur.counts };
          const c = { ...zero(), ...counts[entity] };
          let high = cur.high[entity] ?? null;
          for (const rec of page.items) {
            const w = await writeRecord(q, shopId, entity, rec);
            c.received++;
            c[w.outcome as WriteOutcome]++;
            await noteItem(q, { jobId, shopId, via: 'sync', entity, externalId: rec.id, written: w });
            if (w.outcome !== 'failed' && (!high || Date.parse(rec.updatedAt) > Date.parse(high))) high = new Date(rec.updatedAt).toISOString();
          }
          counts[entity] = c;
          const next = { ...cur, cursor: page.cursor, counts, high: { ...cur.high, ...(high ? { [entity]: high } : {}) }, pages: cur.pages + 1, throttled: cur.throttled + newThrottles };
          await q.query(
            `UPDATE shop_sync_state SET cursor = $2, counts = $3::jsonb, high = $4::jsonb, pages = $5, throttled = $6, updated_at = now() WHERE job_id = $1`,
            [jobId, next.cursor, JSON.stringify(next.counts), JSON.stringify(next.high), next.pages, next.throttled],
          );
          return next;
        });
        if (!committed) throw new PermanentJobError('another run of this sync moved on: this one stops / 该同步的另一次运行已继续，本次停止');
        state = committed;
        done += page.items.length;
        await ctx.progress(done, done + (page.hasNext ? page.items.length : 0) + (entities.length - i - 1));
        if (!page.hasNext || !page.cursor) break;
        cursor = page.cursor;
      }
      // the kind is complete: its watermark moves, and the sync goes on to the next kind
      const nextPhase = entities[i + 1] ?? 'done';
      state = await ctx.db.tx(async (q) => {
        const high = state.high[entity];
        if (high) {
          await q.query(`UPDATE shop_connection SET ${WATERMARK[entity]} = greatest(coalesce(${WATERMARK[entity]}, $2::timestamptz), $2::timestamptz), updated_at = now() WHERE shop_id = $1`, [shopId, high]);
        }
        await q.query(`UPDATE shop_sync_state SET phase = $2, cursor = NULL, updated_at = now() WHERE job_id = $1`, [jobId, nextPhase]);
        return { ...state, phase: nextPhase, cursor: null };
      });
    }
  } catch (e) {
    if (e instanceof PlatformRefused) throw new PermanentJobError(e.message);
    // an outage, a cancel or the process stopping: the attempt ends, the state stays for the next one
    throw e;
  }
  return { platform: row.platform, sandbox: row.sandbox, shop_domain: row.shop_domain, counts: state.counts, pages: state.pages, throttled: state.throttled };
}
