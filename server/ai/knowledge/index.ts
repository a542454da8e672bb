/**
 * The knowledge index: a shop's policies (source types 1–11, chat / email), product knowledge
 * (Douyin product policies), product descriptions and learned documents, cut into chunks in
 * `knowledge_chunk` (migration 0010).
 *
 * Kept in step by triggers: every insert / update / delete of a source row adds a
 * `knowledge_pending` row in the writer's transaction; `syncKnowledge` re-indexes the pending
 * sources and deletes their rows in one transaction. It runs before every search (so a policy
 * saved a moment ago is found), on the `knowledge.sync` tick, and at the end of the demo seed.
 * Learned documents are chunked by their learning job (server/resources/learning/learn-doc-job.ts), which
 * calls `reindexSources` itself; one inserted already learned (the demo seed, an import) is queued
 * by the trigger's INSERT case (migration 0028) like any other source.
 */
import type { Db, Queryable } from '../../db/db.js';
import type { Ticker } from '../../jobs/types.js';
import { chunkText } from '../parse/chunk.js';
import { segmentText } from './segment.js';

export const SOURCE_TYPES = ['policy', 'product_knowledge', 'product_desc', 'learn_doc'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** Chunking defaults (estimated tokens; Dify's are 500 / 50–100). */
export const CHUNK_DEFAULTS = { size: 500, overlap: 0.15 };

export interface SourceRef {
  type: SourceType;
  id: number;
}

/** One source row as the index sees it; `text` empty = nothing to index. */
interface SourceDoc {
  id: number;
  shop_id: number | null;
  channel: string | null;
  policy_type: number | null;
  title: string;
  text: string;
  size: number;
  overlap: number;
}

const D = `${CHUNK_DEFAULTS.size}::int AS size, ${CHUNK_DEFAULTS.overlap}::float8 AS overlap`;
/** What each source contributes; rows that are off (status) contribute nothing. */
const LOADERS: Record<SourceType, string> = {
  policy: `SELECT id, shop_id, channel, source_type::int AS policy_type, title, content AS text, ${D}
             FROM policy WHERE id = ANY($1::int[]) AND status = 1`,
  product_knowledge: `SELECT id, shop_id, NULL::text AS channel, NULL::int AS policy_type, title, policy AS text, ${D}
             FROM douyin_product WHERE id = ANY($1::int[]) AND status = 1 AND policy <> ''`,
  product_desc: `SELECT id, shop_id, NULL::text AS channel, NULL::int AS policy_type, title,
                        CASE WHEN identified_desc <> '' THEN identified_desc ELSE description END AS text, ${D}
             FROM product_desc WHERE id = ANY($1::int[])`,
  learn_doc: `SELECT id, shop_id, NULL::text AS channel, NULL::int AS policy_type, name AS title, content AS text,
                     chunk_size AS size, chunk_overlap::float8 AS overlap
             FROM learn_doc WHERE id = ANY($1::int[]) AND status = 1`,
};

interface ChunkRow {
  shop_id: number | null;
  channel: string | null;
  source_type: SourceType;
  source_id: number;
  policy_type: number | null;
  title: string;
  chunk_index: number;
  text: string;
  segmented: string;
  tokens: number;
}

/** The chunks of one source (its title is searched with every chunk). */
export function chunksOf(type: SourceType, doc: SourceDoc): ChunkRow[] {
  const text = doc.text.trim();
  if (!text) return [];
  // the title's words count twice in every chunk: a policy is about what its title says
  const title = segmentText(doc.title);
  const titleTokens = title ? `${title} ${title}` : '';
  return chunkText(text, { size: doc.size, overlap: doc.overlap }).map((c) => {
    const body = segmentText(c.text);
    const segmented = titleTokens && body ? `${titleTokens} ${body}` : titleTokens || body;
    return {
      shop_id: doc.shop_id,
      channel: doc.channel,
      source_type: type,
      source_id: doc.id,
      policy_type: doc.policy_type,
      title: doc.title.slice(0, 300),
      chunk_index: c.index,
      text: c.text,
      segmented,
      tokens: segmented ? segmented.split(' ').length : 0,
    };
  });
}

const INSERT_BATCH = 500;

/** Writes chunk rows (one statement per 500). */
export async function insertChunks(q: Queryable, rows: ChunkRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const b = rows.slice(i, i + INSERT_BATCH);
    await q.query(
      `INSERT INTO knowledge_chunk (shop_id, channel, source_type, source_id, policy_type, title, chunk_index, text, segmented, tokens, tsv)
       SELECT s, c, st, si, pt, ti, ci, tx, sg, tk, to_tsvector('simple', sg)
         FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::int[], $8::text[], $9::text[], $10::int[])
           AS u(s, c, st, si, pt, ti, ci, tx, sg, tk)`,
      [
        b.map((r) => r.shop_id),
        b.map((r) => r.channel),
        b.map((r) => r.source_type),
        b.map((r) => r.source_id),
        b.map((r) => r.policy_type),
        b.map((r) => r.title),
        b.map((r) => r.chunk_index),
        b.map((r) => r.text),
        b.map((r) => r.segmented),
        b.map((r) => r.tokens),
      ],
    );
  }
}

/**
 * Re-indexes the given sources from their current rows, in the caller's transaction: their
 * old chunks go, the new ones come (none when the row is gone or switched off). Returns the
 * number of chunks written.
 */
export async function reindexSources(q: Queryable, refs: SourceRef[]): Promise<number> {
  const byType = new Map<SourceType, number[]>();
  for (const r of refs) {
    if (!LOADERS[r.type]) continue;
    byType.set(r.type, [...(byType.get(r.type) ?? []), r.id]);
  }
  let written = 0;
  for (const [type, ids] of byType) {
    await q.query(`DELETE FROM knowledge_chunk WHERE source_type = $1 AND source_id = ANY($2::int[])`, [type, ids]);
    const docs = await q.query<SourceDoc>(LOADERS[type], [ids]);
    const rows = docs.rows.flatMap((d) => chunksOf(type, d));
    await insertChunks(q, rows);
    written += rows.length;
  }
  return written;
}

const inTx = <T>(db: Queryable | Db, fn: (q: Queryable) => Promise<T>): Promise<T> =>
  'tx' in db && typeof db.tx === 'function' ? db.tx(fn) : fn(db);

/**
 * Re-indexes pending sources (all, or those of one shop and the shop-less ones first), at most
 * `limit`, in one transaction. Returns how many sources were re-indexed.
 */
export async function syncKnowledge(db: Queryable | Db, opts: { shopId?: number | null; limit?: number } = {}): Promise<number> {
  const limit = opts.limit ?? 2000;
  const shop = opts.shopId ?? null;
  // nothing pending (the usual case): no transaction (a commit costs ~100 ms on PGlite's disk)
  const any = await db.query(`SELECT 1 FROM knowledge_pending WHERE $1::int IS NULL OR shop_id = $1 OR shop_id IS NULL LIMIT 1`, [shop]);
  if (!any.rows.length) return 0;
  return inTx(db, async (q) => {
    const picked = await q.query<{ source_type: SourceType; source_id: number }>(
      `DELETE FROM knowledge_pending p USING (
         SELECT source_type, source_id FROM knowledge_pending
          WHERE $1::int IS NULL OR shop_id = $1 OR shop_id IS NULL
          ORDER BY queued_at, source_id LIMIT $2) x
        WHERE p.source_type = x.source_type AND p.source_id = x.source_id
       RETURNING p.source_type, p.source_id`,
      [shop, limit],
    );
    if (!picked.rows.length) return 0;
    await reindexSources(q, picked.rows.map((r) => ({ type: r.source_type, id: r.source_id })));
    return picked.rows.length;
  });
}

/** Re-indexes everything pending, in slices (seeds, tests, the tick). */
export async function syncAllKnowledge(db: Db, slice = 2000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await syncKnowledge(db, { limit: slice });
    total += n;
    if (n < slice) return total;
  }
}

/** `knowledge.sync`: re-indexes what changed, every few seconds, on one worker at a time. */
export const knowledgeSyncTicker: Ticker = {
  name: 'knowledge.sync',
  everySeconds: 5,
  async run({ db }) {
    await syncKnowledge(db, { limit: 2000 });
  },
};
