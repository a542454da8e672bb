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

/** Which of `terms` the chunks the filters allow hold (the dictionary's translations are restricted to them). */
export async function knownTerms(db: Queryable | Db, terms: string[], f: SearchFilters): Promise<Set<string>> {
  if (!terms.length) return new Set();
  const params: unknown[] = [terms];
  const where = filterSql(f, params);
  const r = await db.query<{ t: string }>(
    `SELECT t FROM unnest($1::text[]) AS t WHERE EXISTS (SELECT 1 FROM knowledge_chunk c WHERE c.tsv @@ plainto_tsquery('simple', t) AND ${where})`,
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
