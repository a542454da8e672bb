/**
 * Retrieval over the knowledge index: the question is segmented like the chunks were
 * (server/ai/knowledge/segment.ts), chunks sharing a word are found through the GIN index on
 * `tsv`, and ranked by BM25 (k1 1.2, b 0.75) computed in SQL: the term frequency of each query
 * word is the number of its positions in the chunk's tsvector, the document frequency and the
 * average length are counted over the chunks the filters allow. Plain SQL, so PGlite and
 * PostgreSQL rank identically.
 */
import type { Db, Queryable } from '../../db/db.js';
import { SOURCE_TYPES, syncKnowledge, type SourceType } from '../knowledge/index.js';
import { tokenize } from '../knowledge/segment.js';

export interface SearchFilters {
  /** a shop's knowledge (and the shop-less documents); omitted: every shop */
  shopId?: number | null;
  /** chat / email; knowledge without a channel matches both */
  channel?: 'chat' | 'email' | null;
  sourceTypes?: SourceType[] | null;
  /** policy source types 1–11 (other sources pass when `sourceTypes` includes them) */
  policyTypes?: number[] | null;
}

export interface SearchOptions extends SearchFilters {
  query: string;
  /** chunks returned (default 5) */
  limit?: number;
  /** at most this many chunks of one source (default 1: the best chunk of each) */
  perSource?: number;
  /** re-index pending sources first (default true) */
  sync?: boolean;
}

export interface Hit {
  id: number;
  shop_id: number | null;
  channel: string | null;
  source_type: SourceType;
  source_id: number;
  policy_type: number | null;
  title: string;
  chunk_index: number;
  text: string;
  /** BM25 score */
  score: number;
  /** distinct query words the chunk contains */
  matched: number;
  /** the highest IDF among them (low: only words most of the knowledge has) */
  best_idf: number;
}

export interface SearchResult {
  /** the query's words as searched */
  terms: string[];
  hits: Hit[];
  /** chunks the filters allow (BM25's N) */
  scope: number;
  tookMs: number;
}

const K1 = 1.2;
const B = 0.75;

function filterSql(f: SearchFilters, params: unknown[]): string {
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

/** The distinct words of a query, as they are indexed. */
export const queryTerms = (query: string): string[] => [...new Set(tokenize(query))];

export async function searchKnowledge(db: Queryable | Db, o: SearchOptions): Promise<SearchResult> {
  const t0 = performance.now();
  if (o.sync !== false) await syncKnowledge(db, { shopId: o.shopId ?? null, limit: 500 });
  const terms = queryTerms(o.query).slice(0, 64);
  if (!terms.length) return { terms, hits: [], scope: 0, tookMs: performance.now() - t0 };
  const limit = Math.min(Math.max(o.limit ?? 5, 1), 100);
  const perSource = Math.max(o.perSource ?? 1, 1);
  const params: unknown[] = [terms.join(' ')];
  const where = filterSql(o, params);
  params.push(perSource, limit);
  const pPer = params.length - 1;
  const pLimit = params.length;
  // q: the query's lexemes exactly as to_tsvector makes them (the same 'simple' parser as the index)
  const r = await db.query<Hit & { scope: number }>(
    `WITH q AS (
       SELECT array_agg(lexeme) AS lx,
              array_to_string(array_agg(quote_literal(lexeme)), ' | ')::tsquery AS tq
         FROM unnest(to_tsvector('simple', $1::text))
     ),
     m AS (
       SELECT c.id, c.tokens AS dl, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tf
         FROM knowledge_chunk c CROSS JOIN q CROSS JOIN LATERAL unnest(c.tsv) u
        WHERE c.tsv @@ q.tq AND u.lexeme = ANY(q.lx) AND ${where}
     ),
     st AS (SELECT count(*)::float8 AS n, greatest(avg(c.tokens), 1)::float8 AS avgdl FROM knowledge_chunk c WHERE ${where}),
     df AS (SELECT lexeme, ln(1 + (st.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf FROM m CROSS JOIN st GROUP BY lexeme, st.n),
     s AS (
       SELECT m.id, count(*)::int AS matched, max(df.idf)::float8 AS best_idf,
              sum(df.idf * m.tf * ${K1 + 1} / (m.tf + ${K1} * (${1 - B} + ${B} * m.dl / st.avgdl)))::float8 AS score
         FROM m JOIN df USING (lexeme) CROSS JOIN st
        GROUP BY m.id
     ),
     ranked AS (
       SELECT c.id::int AS id, c.shop_id, c.channel, c.source_type, c.source_id, c.policy_type, c.title, c.chunk_index, c.text,
              s.score, s.matched, s.best_idf,
              row_number() OVER (PARTITION BY c.source_type, c.source_id ORDER BY s.score DESC, c.chunk_index) AS nth
         FROM s JOIN knowledge_chunk c ON c.id = s.id
     )
     SELECT ranked.*, (SELECT n FROM st)::int AS scope FROM ranked
      WHERE nth <= $${pPer}
      ORDER BY score DESC, source_type, source_id, chunk_index
      LIMIT $${pLimit}`,
    params,
  );
  const scope = r.rows[0]?.scope ?? 0;
  const hits = r.rows.map(({ scope: _s, nth: _n, ...h }: Hit & { scope: number; nth?: unknown }) => ({ ...h, score: Number(h.score), best_idf: Number(h.best_idf) }));
  return { terms, hits, scope, tookMs: performance.now() - t0 };
}
