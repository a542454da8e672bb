/**
 * Vectors of the knowledge chunks (migration 0019), for hybrid ranking
 * (server/ai/retrieval/search.ts). Never inside a user's request:
 *
 * - the `knowledge.embed` tick (every 5 s, one worker at a time) looks whether an embeddings
 *   server is configured (the gateway's first enabled server marked `supports_embeddings`) and
 *   whether any chunk lacks a vector of that server's model (none yet, or one of another server
 *   or model); if so, and no embed job for that server is queued or running, and none failed in
 *   the last `FAILED_PAUSE_SECONDS`, it enqueues a `knowledge.embed` job;
 * - the job embeds those chunks in batches of `EMBED_BATCH` through the gateway's `embed()`
 *   (each batch one `model_call` row, kind `embed`), for at most `JOB_BUDGET_MS`, then ends
 *   (the tick starts the next one). A failing server fails the job (the engine retries it;
 *   after the last attempt the tick waits `FAILED_PAUSE_SECONDS`); BM25 goes on meanwhile.
 *
 * Vectors are L2-normalised before they are stored, so a dot product is the cosine. A chunk
 * whose vector comes back empty or all zeros keeps no vector but is marked with the key, so it
 * is not asked for again (it ranks by BM25 only).
 */
import type { Db, Queryable } from '../../db/db.js';
import { embed } from '../gateway/embed.js';
import { firstEnabled } from '../gateway/servers.js';
import type { JobContext, JobKind, Ticker } from '../../jobs/types.js';

export const EMBED_JOB = 'knowledge.embed';
/** texts per embeddings call */
export const EMBED_BATCH = 32;
/** characters of a chunk (title + text) sent to the embeddings server */
export const EMBED_MAX_CHARS = 4000;
/** a job embeds for about this long, then ends (the next tick starts another) */
const JOB_BUDGET_MS = 5 * 60_000;
/** after an embed job failed its last attempt, the tick starts none for this server for so long */
export const FAILED_PAUSE_SECONDS = 300;

export interface EmbeddingServer {
  id: number;
  name: string;
  model: string;
  /** '<server id>:<model>': what a chunk's vector must have been made by to be compared */
  key: string;
  timeoutMs: number;
}

/** The embeddings server search and the embed job use (null: none configured → BM25 only). */
export async function embeddingServer(db: Queryable): Promise<EmbeddingServer | null> {
  const s = await firstEnabled(db, true);
  if (!s) return null;
  const model = s.embeddingModel || s.model;
  return { id: s.id, name: s.name, model, key: embeddingKey(s.id, model), timeoutMs: s.timeoutMs };
}

export const embeddingKey = (serverId: number, model: string): string => `${serverId}:${model}`.slice(0, 200);

/** The unit vector of `v`, or null when it has no length (or is not numbers). */
export function normalize(v: readonly number[] | null | undefined): number[] | null {
  if (!v?.length) return null;
  let sum = 0;
  for (const x of v) {
    if (typeof x !== 'number' || !Number.isFinite(x)) return null;
    sum += x * x;
  }
  if (sum <= 0) return null;
  const n = Math.sqrt(sum);
  return v.map((x) => x / n);
}

/** The text embedded for a chunk: its title (what the source is about) and its text. */
export const chunkEmbedText = (title: string, text: string): string => (title ? `${title}\n${text}` : text).slice(0, EMBED_MAX_CHARS);

/** Chunks still without a vector of `key` (the three arms use the index on embedding_key). */
const TODO = `(embedding_key IS NULL OR embedding_key < $1 OR embedding_key > $1)`;

export async function chunksToEmbed(db: Queryable, key: string): Promise<number> {
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_chunk WHERE ${TODO}`, [key]);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Embeds one batch of chunks that lack a vector of the server's key. Returns how many chunks it
 * handled (0: none left). Throws when the embeddings call fails (the gateway recorded it).
 */
export async function embedBatch(db: Queryable, s: EmbeddingServer, opts: { batch?: number; signal?: AbortSignal } = {}): Promise<number> {
  const rows = (
    await db.query<{ id: string | number; title: string; text: string }>(
      `SELECT id, title, text FROM knowledge_chunk WHERE ${TODO} ORDER BY id LIMIT $2`,
      [s.key, opts.batch ?? EMBED_BATCH],
    )
  ).rows;
  if (!rows.length) return 0;
  const r = await embed({ db, texts: rows.map((c) => chunkEmbedText(c.title, c.text)), modelServerId: s.id, signal: opts.signal });
  if (!r) throw new Error('the embeddings server is gone / 向量模型服务不存在');
  if (r.vectors.length !== rows.length) throw new Error(`the embeddings server returned ${r.vectors.length} vectors for ${rows.length} texts`);
  const vectors = r.vectors.map((v) => normalize(v));
  await db.query(
    `UPDATE knowledge_chunk c SET embedding = u.e::real[], embedding_key = $3, embedded_at = now()
       FROM unnest($1::bigint[], $2::text[]) AS u(id, e)
      WHERE c.id = u.id`,
    [rows.map((c) => Number(c.id)), vectors.map((v) => (v ? `{${v.join(',')}}` : null)), s.key],
  );
  return rows.length;
}

interface EmbedJobData {
  key: string;
}

/** `knowledge.embed`: embeds the chunks that lack a vector of the configured server's model. */
export const embedKind: JobKind<EmbedJobData> = {
  kind: EMBED_JOB,
  title: () => 'Embed knowledge chunks / 知识向量化',
  maxAttempts: 3,
  retryDelaySeconds: 10,
  async run(ctx: JobContext<EmbedJobData>) {
    const s = await embeddingServer(ctx.db);
    // the server (or its model) changed since the job was queued: the tick queues one for the new key
    if (!s || s.key !== ctx.job.data.key) return { embedded: 0, skipped: 'the embeddings server changed' };
    const total = await chunksToEmbed(ctx.db, s.key);
    const t0 = Date.now();
    let done = 0;
    await ctx.progress(0, total);
    while (Date.now() - t0 < JOB_BUDGET_MS) {
      const n = await embedBatch(ctx.db, s, { signal: ctx.signal });
      if (!n) break;
      done += n;
      await ctx.progress(Math.min(done, total), total);
    }
    return { embedded: done, server: s.name, model: s.model };
  },
};

/** Starts an embed job when there is work, none is under way, and the last one did not just fail. */
export async function embedTick(db: Db | Queryable, enqueue: Parameters<Ticker['run']>[0]['enqueue']): Promise<boolean> {
  const s = await embeddingServer(db);
  if (!s) return false;
  const busy = await db.query(
    `SELECT 1 FROM work_job
      WHERE kind = $1 AND data->>'key' = $2
        AND (state IN ('queued', 'running') OR (state = 'failed' AND finished_at > now() - make_interval(secs => $3)))
      LIMIT 1`,
    [EMBED_JOB, s.key, FAILED_PAUSE_SECONDS],
  );
  if (busy.rows.length) return false;
  const todo = await db.query(`SELECT 1 FROM knowledge_chunk WHERE ${TODO} LIMIT 1`, [s.key]);
  if (!todo.rows.length) return false;
  await enqueue(db, EMBED_JOB, { key: s.key } satisfies EmbedJobData, { title: `Embed knowledge chunks (${s.name}) / 知识向量化（${s.name}）` });
  return true;
}

export const knowledgeEmbedTicker: Ticker = {
  name: 'knowledge.embed',
  everySeconds: 5,
  async run({ db, enqueue }) {
    await embedTick(db, enqueue);
  },
};
