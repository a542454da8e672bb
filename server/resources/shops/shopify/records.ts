/**
 * Writing what a platform sent: products → `product_desc` (their texts become the shop's
 * knowledge through its index trigger), policies → `policy` (source type 4, 平台 / Platform;
 * knowledge too), orders → `shop_order`. Each keyed by (shop, the platform's id), with the hash
 * of what we store: the same record again writes nothing and reports `unchanged`. Used by the
 * sync (sync-job.ts) and by the webhooks (webhook.ts).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../../../db/db.js';
import type { Entity, OrderRecord, PolicyRecord, ProductRecord, RecordOf } from '../../../shops/types.js';

export type WriteOutcome = 'created' | 'updated' | 'unchanged' | 'failed';

export interface Written {
  outcome: WriteOutcome;
  title: string;
  error?: string;
}

const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const FIN = ['pending', 'authorized', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided', 'expired'];
const FUL = ['unfulfilled', 'partial', 'fulfilled', 'restocked'];

/** What is wrong with a record before it reaches the database (English / 中文), or null. */
function problem(entity: Entity, r: RecordOf[Entity]): string | null {
  if (!r.id || typeof r.id !== 'string' || r.id.length > 100) return 'the record has no usable id / 记录缺少有效 ID';
  if (Number.isNaN(Date.parse(r.updatedAt))) return 'updatedAt is not a time / updatedAt 不是有效时间';
  if (entity === 'order') {
    const o = r as OrderRecord;
    if (!/^-?\d{1,10}(\.\d{1,2})?$/.test(o.amount)) return `amount "${String(o.amount).slice(0, 20)}" is not a price / 金额无效`;
    if (!/^[A-Z]{3}$/.test(o.currency)) return `currency "${String(o.currency).slice(0, 8)}" is not a currency code / 币种无效`;
    if (!FIN.includes(o.financialStatus) || !FUL.includes(o.fulfillmentStatus)) return 'unknown order status / 订单状态未知';
    if (Number.isNaN(Date.parse(o.createdAt))) return 'createdAt is not a time / createdAt 不是有效时间';
  }
  return null;
}

const outcomeOf = (rows: Array<{ created: boolean }>): WriteOutcome => (!rows.length ? 'unchanged' : rows[0].created ? 'created' : 'updated');

async function writeProduct(q: Queryable, shopId: number, p: ProductRecord): Promise<WriteOutcome> {
  const stored = { title: p.title.slice(0, 300), description: p.description, handle: p.handle, status: p.status };
  const r = await q.query<{ created: boolean }>(
    `INSERT INTO product_desc (shop_id, product_id, title, description, status, external_id, ingest_hash)
     VALUES ($1, $2, $3, $4, 0, $5, $6)
     ON CONFLICT (shop_id, external_id) WHERE external_id IS NOT NULL DO UPDATE
        SET title = EXCLUDED.title, description = EXCLUDED.description, ingest_hash = EXCLUDED.ingest_hash, updated_at = now()
      WHERE product_desc.ingest_hash IS DISTINCT FROM EXCLUDED.ingest_hash
     RETURNING (xmax = 0) AS created`,
    [shopId, (/(\d+)$/.exec(p.id)?.[1] ?? p.id).slice(0, 60), stored.title, stored.description, p.id, hash(stored)],
  );
  return outcomeOf(r.rows);
}

async function writePolicy(q: Queryable, shopId: number, p: PolicyRecord): Promise<WriteOutcome> {
  const stored = { title: p.title.slice(0, 200), body: p.body, url: p.url };
  // the page's address closes the text, so an answer from it can name where it came from
  const content = p.url ? `${p.body}\n\n${p.url}` : p.body;
  const r = await q.query<{ created: boolean }>(
    `INSERT INTO policy (shop_id, title, content, source_type, channel, status, external_id, ingest_hash)
     VALUES ($1, $2, $3, 4, 'chat', 1, $4, $5)
     ON CONFLICT (shop_id, external_id) WHERE external_id IS NOT NULL DO UPDATE
        SET title = EXCLUDED.title, content = EXCLUDED.content, ingest_hash = EXCLUDED.ingest_hash, updated_at = now()
      WHERE policy.ingest_hash IS DISTINCT FROM EXCLUDED.ingest_hash
     RETURNING (xmax = 0) AS created`,
    [shopId, stored.title, content, p.id, hash(stored)],
  );
  return outcomeOf(r.rows);
}

async function writeOrder(q: Queryable, shopId: number, o: OrderRecord): Promise<WriteOutcome> {
  const stored = {
    name: o.name.slice(0, 40),
    email: o.email.slice(0, 200),
    customer: o.customerName.slice(0, 100),
    amount: o.amount,
    currency: o.currency,
    fin: o.financialStatus,
    ful: o.fulfillmentStatus,
    createdAt: new Date(o.createdAt).toISOString(),
  };
  const r = await q.query<{ created: boolean }>(
    `INSERT INTO shop_order (shop_id, name, email, customer_name, amount, currency, financial_status, fulfillment_status, created_at, raw, external_id, ingest_hash)
     VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9, $10::jsonb, $11, $12)
     ON CONFLICT (shop_id, external_id) WHERE external_id IS NOT NULL DO UPDATE
        SET name = EXCLUDED.name, email = EXCLUDED.email, customer_name = EXCLUDED.customer_name, amount = EXCLUDED.amount,
            currency = EXCLUDED.currency, financial_status = EXCLUDED.financial_status, fulfillment_status = EXCLUDED.fulfillment_status,
            raw = EXCLUDED.raw, ingest_hash = EXCLUDED.ingest_hash
      WHERE shop_order.ingest_hash IS DISTINCT FROM EXCLUDED.ingest_hash
     RETURNING (xmax = 0) AS created`,
    [shopId, stored.name, stored.email, stored.customer, stored.amount, stored.currency, stored.fin, stored.ful, stored.createdAt,
      JSON.stringify({ platform: 'shopify', id: o.id, updated_at: o.updatedAt }), o.id, hash(stored)],
  );
  return outcomeOf(r.rows);
}

const titleOf = (entity: Entity, r: RecordOf[Entity]) => String(entity === 'order' ? (r as OrderRecord).name : (r as ProductRecord | PolicyRecord).title).slice(0, 300);

/**
 * Writes one record inside a savepoint of the caller's transaction: a record the database still
 * refuses fails alone (its writes undone), the page goes on.
 */
export async function writeRecord<E extends Entity>(q: Queryable, shopId: number, entity: E, r: RecordOf[E]): Promise<Written> {
  const title = titleOf(entity, r);
  const bad = problem(entity, r);
  if (bad) return { outcome: 'failed', title, error: bad };
  await q.query('SAVEPOINT shop_record');
  try {
    const outcome =
      entity === 'product'
        ? await writeProduct(q, shopId, r as ProductRecord)
        : entity === 'policy'
          ? await writePolicy(q, shopId, r as PolicyRecord)
          : await writeOrder(q, shopId, r as OrderRecord);
    await q.query('RELEASE SAVEPOINT shop_record');
    return { outcome, title };
  } catch (err) {
    await q.query('ROLLBACK TO SAVEPOINT shop_record');
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && /^2[23]/.test(code)) return { outcome: 'failed', title, error: `could not be stored (SQLSTATE ${code}) / 无法保存该记录` };
    throw err;
  }
}

/** Notes a created, changed or failed record in the sync log's items (once per sync and record). */
export async function noteItem(
  q: Queryable,
  item: { jobId: number | null; shopId: number; via: 'sync' | 'webhook'; entity: Entity; externalId: string; written: Written },
): Promise<void> {
  if (item.written.outcome === 'unchanged') return;
  await q.query(
    `INSERT INTO shop_sync_item (job_id, shop_id, via, entity, external_id, action, title, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (job_id, entity, external_id) WHERE job_id IS NOT NULL DO NOTHING`,
    [item.jobId, item.shopId, item.via, item.entity, item.externalId.slice(0, 100), item.written.outcome, item.written.title, (item.written.error ?? '').slice(0, 1000)],
  );
}
