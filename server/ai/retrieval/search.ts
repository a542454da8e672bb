/**
 * Retrieval over the knowledge index: the question is segmented like the chunks were
 * (server/ai/knowledge/segment.ts), chunks sharing a word are found through the GIN index on
 * `tsv`, and ranked by BM25 (k1 1.2, b 0.75) computed in SQL: the term frequency of each query
 * word is the number of its positions in the chunk's tsvector, the document frequency and the
 * average length are counted over the chunks the filters allow. Plain SQL, so PGlite and
 * PostgreSQL rank identically.
 *
 * Hybrid ranking (the vector side in vectors.ts): when an embeddings server is configured (server/ai/knowledge/embed.ts) and the
 * question can be embedded (within `QUERY_EMBED_TIMEOUT_MS`), the BM25 list and the list by
 * vector similarity (cosine of the L2-normalised vectors, an exact scan of the chunks the filters
 * allow that have a vector of that server's model) are fused by Reciprocal Rank Fusion:
 * fused = Σ 1 / (RRF_K + rank) over the first `RRF_DEPTH` chunks of each list. Chunks without a
 * vector yet take part through BM25 alone. Otherwise (no server, the call fails or times out)
 * the ranking is BM25 alone, exactly as without embeddings, and the result says why.
 */
import type { Db, Queryable } from '../../db/db.js';
import { syncKnowledge, type SourceType } from '../knowledge/index.js';
import { expandWithDictionary } from '../knowledge/expand.js';
import type { Expansion } from '../knowledge/lexicon.js';
import { filterSql, knownTerms, matchSql, scopeWords, smallScope, type SearchFilters } from './scope.js';
import { questionVector, vectorRanks, vectorScope, VECTOR_SCAN_MAX, type QueryVector, type VectorRow } from './vectors.js';

export type { SearchFilters } from './scope.js';

export interface SearchOptions extends SearchFilters {
  query: string;
  /** chunks returned (default 5) */
  limit?: number;
  /** at most this many chunks of one source (default 1: the best chunk of each) */
  perSource?: number;
  /** re-index pending sources first (default true) */
  sync?: boolean;
  /** 'auto' (default): hybrid when an embeddings server is configured; 'bm25': BM25 alone */
  ranking?: 'auto' | 'bm25';
  /** translate the question's words the lexicon lacks by the bilingual dictionary (default true; server/ai/knowledge/expand.ts) */
  dictionary?: boolean;
  /** correct misspelt English words against the lexicon and the shop's words (default true; server/ai/knowledge/spelling.ts) */
  spelling?: boolean;
  /** the question's vector from an earlier search of the same question (its `queryVector`): not embedded again */
  queryVector?: QueryVector;
  /** where the question's embeddings call is recorded (default: `db`) */
  log?: { warn(obj: object, msg?: string): void };
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
  /** BM25 score (0: the chunk shares no word with the question, found by its vector) */
  score: number;
  /** BM25 score, null when the chunk is not among the BM25 candidates */
  bm25: number | null;
  /** cosine similarity of the question's and the chunk's vectors (hybrid only; null: no vector) */
  similarity: number | null;
  /** the Reciprocal Rank Fusion score the hybrid list is ordered by (null: BM25 ranking) */
  fused: number | null;
  /** distinct query words the chunk contains */
  matched: number;
  /** the highest IDF among them (low: only words most of the knowledge has) */
  best_idf: number;
}

export interface SearchResult {
  /** the query's words as searched */
  terms: string[];
  /** the words the lexicon added (searched at EXPANSION_WEIGHT) and the question's concepts */
  expansion: Expansion;
  hits: Hit[];
  /** chunks the filters allow (BM25's N) */
  scope: number;
  tookMs: number;
  /** 'hybrid': BM25 and vectors fused; 'bm25': BM25 alone (see `rankingNote`) */
  ranking: 'bm25' | 'hybrid';
  /** why BM25 alone ('' when hybrid): no embeddings server, the call failed or timed out, asked for */
  rankingNote: string;
  /** hybrid: chunks in scope that have a vector of the server's model (the others rank by BM25 only) */
  embedded: number | null;
  /** hybrid: the embeddings server and model used */
  embeddings: { serverId: number; server: string; model: string } | null;
  /** the question's vector, or why none (another search of the same question can reuse it) */
  queryVector?: QueryVector;
}

/** Reciprocal Rank Fusion's constant (Cormack et al. 2009; 60 is the common default) */
export const RRF_K = 60;
/** the chunks of each list (BM25, vectors) that take part in the fusion */
export const RRF_DEPTH = 50;
const K1 = 1.2;
const B = 0.75;

/** A word the lexicon added to a question (server/ai/knowledge/lexicon.ts) weighs this much of one of its own. */
export const EXPANSION_WEIGHT = 0.6;
interface Weighted {
  term: string;
  weight: number;
  /** a group of the lexicon counts once per chunk (its best word) */
  group: string;
}

type Bm25Row = Omit<Hit, 'bm25' | 'similarity' | 'fused'>;

/**
 * BM25 over the filtered chunks: at most `perSource` chunks of a source, the best `limit`, ordered
 * by score. `scope` is 0 when nothing matched.
 */
async function bm25(db: Queryable | Db, terms: Weighted[], f: SearchFilters, perSource: number, limit: number, small = false): Promise<{ rows: Bm25Row[]; scope: number }> {
  const params: unknown[] = [terms.map((t) => t.term), terms.map((t) => t.weight), terms.map((t) => t.group)];
  const where = filterSql(f, params);
  params.push(perSource, limit);
  const pPer = params.length - 1;
  const pLimit = params.length;
  // qw: the query's lexemes exactly as to_tsvector makes them (the same 'simple' parser as the
  // index), each with its weight (1 the question's own words, less a word the lexicon added)
  const r = await db.query<Bm25Row & { scope: number }>(
    `WITH qw AS (
       SELECT u.lexeme, max(t.w)::float8 AS w, min(t.g) AS g
         FROM unnest($1::text[], $2::float8[], $3::text[]) AS t(term, w, g) CROSS JOIN LATERAL unnest(to_tsvector('simple', t.term)) u
        GROUP BY u.lexeme
     ),
     q AS (
       SELECT array_agg(lexeme) AS lx,
              array_to_string(array_agg(quote_literal(lexeme)), ' | ')::tsquery AS tq
         FROM qw
     ),
     m AS (
       SELECT c.id, c.tokens AS dl, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tf
         FROM knowledge_chunk c CROSS JOIN q CROSS JOIN LATERAL unnest(c.tsv) u
        WHERE ${matchSql('q.tq', small)} AND u.lexeme = ANY(q.lx) AND ${where}
     ),
     st AS (SELECT count(*)::float8 AS n, greatest(avg(c.tokens), 1)::float8 AS avgdl FROM knowledge_chunk c WHERE ${where}),
     df AS (SELECT m.lexeme, qw.w * ln(1 + (st.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf
              FROM m JOIN qw USING (lexeme) CROSS JOIN st GROUP BY m.lexeme, qw.w, st.n),
     pg AS (
       SELECT m.id, qw.g, count(*) AS n, max(df.idf) AS bi,
              max(df.idf * m.tf * ${K1 + 1} / (m.tf + ${K1} * (${1 - B} + ${B} * m.dl / st.avgdl))) AS part
         FROM m JOIN df USING (lexeme) JOIN qw USING (lexeme) CROSS JOIN st
        GROUP BY m.id, qw.g
     ),
     s AS (SELECT id, sum(n)::int AS matched, max(bi)::float8 AS best_idf, sum(part)::float8 AS score FROM pg GROUP BY id),
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
  const rows = r.rows.map(({ scope: _s, nth: _n, ...h }: Bm25Row & { scope: number; nth?: unknown }) => ({ ...h, score: Number(h.score), best_idf: Number(h.best_idf) }));
  return { rows, scope };
}

const byFused = (a: Hit, b: Hit) =>
  (b.fused ?? 0) - (a.fused ?? 0) ||
  b.score - a.score ||
  (b.similarity ?? -2) - (a.similarity ?? -2) ||
  a.source_type.localeCompare(b.source_type) ||
  a.source_id - b.source_id ||
  a.chunk_index - b.chunk_index;

export async function searchKnowledge(db: Queryable | Db, o: SearchOptions): Promise<SearchResult> {
  const t0 = performance.now();
  if (o.sync !== false) await syncKnowledge(db, { shopId: o.shopId ?? null, limit: 500 });
  // a shop's scope of SMALL_SCOPE chunks or fewer: read by the shop index, not the word index (scope.ts)
  const small = (await smallScope(db, o)) !== null;
  const expansion = await expandWithDictionary(o.query, (t) => knownTerms(db, t, o, small), { dictionary: o.dictionary, spelling: o.spelling, vocabulary: () => scopeWords(db, o) });
  const terms = expansion.terms.slice(0, 64);
  const grp = (t: string) => expansion.group.get(t) ?? t;
  const weighted: Weighted[] = [
    ...terms.map((term) => ({ term, weight: 1, group: grp(term) })),
    ...expansion.added.slice(0, 128).map(([term, w]) => ({ term, weight: w * EXPANSION_WEIGHT, group: grp(term) })),
  ];
  const limit = Math.min(Math.max(o.limit ?? 5, 1), 100);
  const perSource = Math.max(o.perSource ?? 1, 1);
  const qv: QueryVector = o.ranking === 'bm25' ? { ok: false, note: 'BM25 alone was asked for / 指定仅用 BM25' } : (o.queryVector ?? (await questionVector(db, o.query, o.log)));
  const none = { embedded: null, embeddings: null, queryVector: qv };

  let note = qv.ok ? '' : qv.note;
  const counts = qv.ok ? await vectorScope(db, qv.key, o) : null;
  if (counts && counts.embedded > VECTOR_SCAN_MAX) {
    note = `${counts.embedded} chunks with vectors in scope, more than an exact scan takes (${VECTOR_SCAN_MAX}); narrow the filters (a shop) / 范围内向量过多，请按店铺筛选`;
  }
  if (!qv.ok || note) {
    if (!weighted.length) return { terms, expansion, hits: [], scope: 0, tookMs: performance.now() - t0, ranking: 'bm25', rankingNote: note, ...none };
    const r = await bm25(db, weighted, o, perSource, limit, small);
    const hits = r.rows.map((h) => ({ ...h, bm25: h.score, similarity: null, fused: null }));
    return { terms, expansion, hits, scope: r.scope, tookMs: performance.now() - t0, ranking: 'bm25', rankingNote: note, ...none };
  }

  // hybrid: both lists chunk by chunk (no per-source cut yet), fused, then cut per source and to the limit
  const depth = Math.max(RRF_DEPTH, Math.min(limit * perSource, 500));
  const lexical = weighted.length ? await bm25(db, weighted, o, Number.MAX_SAFE_INTEGER, depth, small) : { rows: [], scope: 0 };
  const vec = await vectorRanks(db, qv.vector, qv.key, o, depth, lexical.rows.map((h) => h.id));
  const byId = new Map<number, Hit>();
  lexical.rows.forEach((h, i) => byId.set(h.id, { ...h, bm25: h.score, similarity: null, fused: 1 / (RRF_K + i + 1) }));
  const vectorOnly: VectorRow[] = [];
  for (const v of vec) {
    const h = byId.get(v.id);
    const term = v.vrank <= depth ? 1 / (RRF_K + v.vrank) : 0;
    if (h) {
      h.similarity = v.sim;
      h.fused = (h.fused ?? 0) + term;
    } else if (term) vectorOnly.push(v);
  }
  if (vectorOnly.length) {
    const rows = await db.query<Omit<Bm25Row, 'score' | 'matched' | 'best_idf'>>(
      `SELECT id::int AS id, shop_id, channel, source_type, source_id, policy_type, title, chunk_index, text FROM knowledge_chunk WHERE id = ANY($1::bigint[])`,
      [vectorOnly.map((v) => v.id)],
    );
    const sims = new Map(vectorOnly.map((v) => [v.id, v]));
    for (const c of rows.rows) {
      const v = sims.get(Number(c.id))!;
      byId.set(Number(c.id), { ...c, id: Number(c.id), score: 0, matched: 0, best_idf: 0, bm25: null, similarity: v.sim, fused: 1 / (RRF_K + v.vrank) });
    }
  }
  const perSrc = new Map<string, number>();
  const hits: Hit[] = [];
  for (const h of [...byId.values()].sort(byFused)) {
    const k = `${h.source_type}:${h.source_id}`;
    const n = perSrc.get(k) ?? 0;
    if (n >= perSource) continue;
    perSrc.set(k, n + 1);
    hits.push(h);
    if (hits.length >= limit) break;
  }
  return {
    terms,
    expansion,
    hits,
    scope: counts!.scope,
    tookMs: performance.now() - t0,
    ranking: 'hybrid',
    rankingNote: '',
    embedded: counts!.embedded,
    embeddings: qv.server,
    queryVector: qv,
  };
}
