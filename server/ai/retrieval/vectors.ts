/**
 * The vector side of hybrid retrieval (search.ts): the question's vector from the embeddings
 * server (paused a while after a failure, so a server that is down does not slow every search),
 * and the cosine ranking of the chunks the filters allow — an exact scan over `real[]` vectors,
 * the same on PGlite and PostgreSQL (docs/ai.md "Hybrid ranking").
 */
import type { Db, Queryable } from '../../db/db.js';
import { embed } from '../gateway/embed.js';
import { embeddingServer, normalize } from '../knowledge/embed.js';
import { filterSql, type SearchFilters } from './scope.js';

/** the question's embeddings call waits at most this long (the server's own timeout may be shorter) */
export const QUERY_EMBED_TIMEOUT_MS = 3000;
/** after the question could not be embedded, searches use BM25 alone this long before trying again */
export const QUERY_EMBED_PAUSE_MS = 15_000;
/**
 * the most chunks with vectors an exact scan compares (about 0.5 s per 2,000 chunks of 1,024
 * dimensions on PostgreSQL and PGlite alike); more in scope (a search over every shop of a big
 * knowledge base): BM25 alone, and the result says so
 */
export const VECTOR_SCAN_MAX = 5000;

/** Questions are not embedded for a while after their server failed (a server down must not slow every search). */
const queryEmbedPausedUntil = new Map<string, number>();

export type QueryVector = { ok: true; vector: number[]; server: { serverId: number; server: string; model: string }; key: string } | { ok: false; note: string };

export async function questionVector(db: Queryable | Db, query: string, log?: { warn(obj: object, msg?: string): void }): Promise<QueryVector> {
  const s = await embeddingServer(db);
  if (!s) return { ok: false, note: 'no embeddings server is configured / 未配置向量模型服务' };
  const paused = queryEmbedPausedUntil.get(s.key);
  if (paused && paused > Date.now()) return { ok: false, note: `the embeddings server failed a moment ago; BM25 alone until ${new Date(paused).toISOString()} / 向量模型服务刚才调用失败，暂用 BM25` };
  queryEmbedPausedUntil.delete(s.key);
  try {
    const r = await embed({ db, texts: [query], modelServerId: s.id, signal: AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS), log });
    const v = normalize(r?.vectors[0]);
    if (!r || !v) throw new Error('no vector in the reply');
    return { ok: true, vector: v, key: s.key, server: { serverId: s.id, server: s.name, model: s.model } };
  } catch (e) {
    queryEmbedPausedUntil.set(s.key, Date.now() + QUERY_EMBED_PAUSE_MS);
    const msg = (e as Error).message || String(e);
    const why = /cancel|abort|no reply within/i.test(msg) ? `timed out (${Math.min(QUERY_EMBED_TIMEOUT_MS, s.timeoutMs)} ms)` : `failed: ${msg}`;
    return { ok: false, note: `the question could not be embedded (${why.slice(0, 300)}) / 问题向量化失败，使用 BM25` };
  }
}

export interface VectorRow {
  id: number;
  sim: number;
  vrank: number;
}

/** The chunks the filters allow, and those of them with a vector of `key`. */
export async function vectorScope(db: Queryable | Db, key: string, f: SearchFilters): Promise<{ scope: number; embedded: number }> {
  const params: unknown[] = [key];
  const where = filterSql(f, params);
  const r = await db.query<{ scope: number; embedded: number }>(
    `SELECT count(*)::int AS scope, count(*) FILTER (WHERE c.embedding_key = $1 AND c.embedding IS NOT NULL)::int AS embedded
       FROM knowledge_chunk c WHERE ${where}`,
    params,
  );
  return { scope: Number(r.rows[0]?.scope ?? 0), embedded: Number(r.rows[0]?.embedded ?? 0) };
}

/**
 * Cosine similarity (the vectors are unit length: a dot product) over the filtered chunks that
 * have a vector of `key`, an exact scan: the first `depth` and the `also` chunks (BM25's
 * candidates), with their rank.
 */
export async function vectorRanks(db: Queryable | Db, vector: number[], key: string, f: SearchFilters, depth: number, also: number[]): Promise<VectorRow[]> {
  const params: unknown[] = [vector, key, vector.length];
  const where = filterSql(f, params);
  params.push(depth, also);
  const r = await db.query<VectorRow>(
    `WITH v AS (
       SELECT c.id, (SELECT sum(a * b) FROM unnest(c.embedding, $1::real[]) AS u(a, b))::float8 AS sim
         FROM knowledge_chunk c
        WHERE c.embedding_key = $2 AND c.embedding IS NOT NULL AND array_length(c.embedding, 1) = $3 AND ${where}
     ),
     r AS (SELECT id, sim, row_number() OVER (ORDER BY sim DESC, id) AS vrank FROM v)
     SELECT id::int AS id, sim, vrank::int AS vrank FROM r
      WHERE vrank <= $${params.length - 1} OR id = ANY($${params.length}::bigint[])`,
    params,
  );
  return r.rows.map((x) => ({ id: Number(x.id), sim: Number(x.sim), vrank: Number(x.vrank) }));
}

