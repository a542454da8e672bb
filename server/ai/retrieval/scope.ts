/**
 * The chunks a search may return (its filters as SQL), and which words they hold — the
 * dictionary's translations are restricted to those (server/ai/knowledge/expand.ts).
 */
import type { Db, Queryable } from '../../db/db.js';
import { SOURCE_TYPES, type SourceType } from '../knowledge/index.js';

export interface SearchFilters {
  /** a shop's knowledge (and the shop-less documents); omitted: every shop */
  shopId?: number | null;
  /** a policy_channel value (chat / email); knowledge without a channel matches both */
  channel?: string | null;
  sourceTypes?: SourceType[] | null;
  /** policy source types 1–11 (other sources pass when `sourceTypes` includes them) */
  policyTypes?: number[] | null;
}

/** The filters as a condition on `knowledge_chunk c`, its values appended to `params`. */
export function filterSql(f: SearchFilters, params: unknown[]): string {
  const w: string[] = [];
  if (f.shopId != null) {
    params.push(f.shopId);
    w.push(`(c.shop_id = $${params.length} OR c.shop_id IS NULL)`);
  }
  if (f.channel) {
    params.push(f.channel);
    w.push(`(c.channel IS NULL OR c.channel = $${params.length})`);
  }
  const types = f.sourceTypes?.length ? f.sourceTypes.filter((t) => (SOURCE_TYPES as readonly string[]).includes(t)) : null;
  const ptypes = f.policyTypes?.length ? f.policyTypes : null;
  if (types && ptypes) {
    params.push(types.filter((t) => t !== 'policy'), ptypes);
    w.push(`(c.source_type = ANY($${params.length - 1}::text[]) OR c.policy_type = ANY($${params.length}::int[]))`);
  } else if (types) {
    params.push(types);
    w.push(`c.source_type = ANY($${params.length}::text[])`);
  } else if (ptypes) {
    params.push(ptypes);
    w.push(`c.policy_type = ANY($${params.length}::int[])`);
  }
  return w.length ? w.join(' AND ') : 'true';
}

/**
 * A shop's knowledge of at most this many chunks is searched by reading its chunks (the shop
 * index) and testing each one's words, not through the word index: an OR of a question's words
 * and the lexicon's (often 40 and more) matches most of a big knowledge base, and the word index
 * then builds a bitmap of every shop's matching chunks before the shop's few are kept — 73,000 of
 * 100,000 chunks for one question, about 0.3 s, measured on PostgreSQL (docs/ai.md, Retrieval).
 */
export const SMALL_SCOPE = 20_000;

/** The chunks a shop-filtered search may return, when at most SMALL_SCOPE; null: no shop filter, or more. */
export async function smallScope(db: Queryable | Db, f: SearchFilters): Promise<number | null> {
  if (f.shopId == null) return null;
  const params: unknown[] = [];
  const where = filterSql(f, params);
  params.push(SMALL_SCOPE + 1);
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM knowledge_chunk c WHERE ${where} LIMIT $${params.length}) x`, params);
  const n = Number(r.rows[0]?.n ?? 0);
  return n <= SMALL_SCOPE ? n : null;
}

/**
 * `tsv` matches the tsquery `q`: through the word index (`@@`), or, for a small scope, as a test of
 * each chunk the shop index gave (`ts_match_vq` is the same test, which the planner does not take
 * to the word index).
 */
export const matchSql = (q: string, small: boolean): string => (small ? `ts_match_vq(c.tsv, ${q})` : `c.tsv @@ ${q}`);

/** Which of `terms` the chunks the filters allow hold (the dictionary's translations are restricted to them). */
export async function knownTerms(db: Queryable | Db, terms: string[], f: SearchFilters, small = false): Promise<Set<string>> {
  if (!terms.length) return new Set();
  const params: unknown[] = [terms];
  const where = filterSql(f, params);
  const r = await db.query<{ t: string }>(
    `SELECT t FROM unnest($1::text[]) AS t WHERE EXISTS (SELECT 1 FROM knowledge_chunk c WHERE ${matchSql(`plainto_tsquery('simple', t)`, small)} AND ${where})`,
    params,
  );
  return new Set(r.rows.map((x) => x.t));
}

/**
 * The words (Latin letters, stemmed as indexed) of the chunks a search of one shop may return,
 * with how many chunks hold each: the vocabulary a misspelt word is corrected against
 * (server/ai/knowledge/spelling.ts). Without a shop (hit testing across every shop) it is not
 * read — the lexicon's words alone correct typos there.
 */
export async function scopeWords(db: Queryable | Db, f: SearchFilters): Promise<Map<string, number>> {
  if (f.shopId == null) return new Map();
  const params: unknown[] = [];
  const where = filterSql(f, params);
  const r = await db.query<{ w: string; n: number }>(
    `SELECT u.lexeme AS w, count(*)::int AS n FROM knowledge_chunk c CROSS JOIN LATERAL unnest(c.tsv) u
      WHERE ${where} AND u.lexeme ~ '^[a-z]{3,}$' GROUP BY u.lexeme`,
    params,
  );
  return new Map(r.rows.map((x) => [x.w, Number(x.n)]));
}
