/** embed: the embeddings endpoint of the first server marked for embeddings (or a given one). */
import type { Queryable } from '../../db/db.js';
import { costOf, estimateUsage, recordCall } from './record.js';
import { classify, clientFor, Deadline, firstEnabled, loadServer, type LoadedServer } from './servers.js';
import type { EmbedResult, GatewayLog } from './types.js';

export interface EmbedRequest {
  db: Queryable;
  texts: string[];
  /** default: the first enabled server marked for embeddings */
  modelServerId?: number | null;
  signal?: AbortSignal;
  log?: GatewayLog;
}

/** An embeddings call that failed: `message` is the classified reason, `detail` the log's text. */
export class EmbedFailed extends Error {
  outcome: 'error' | 'timeout' | 'aborted' = 'error';
  detail = '';
}

export async function embedOn(s: LoadedServer, texts: string[], signal?: AbortSignal) {
  if (s.keyError) throw new Error(s.keyError);
  const d = new Deadline(s.timeoutMs, signal);
  try {
    const r = await clientFor(s).embeddings.create(
      { model: s.embeddingModel || s.model, input: texts, encoding_format: 'float' },
      { signal: d.signal, timeout: s.timeoutMs, maxRetries: 0 },
    );
    const vectors = [...r.data].sort((a, b) => a.index - b.index).map((x) => x.embedding);
    return { vectors, usage: r.usage };
  } catch (e) {
    const c = classify(e, d, s);
    throw Object.assign(new EmbedFailed(c.error), { outcome: c.outcome, detail: c.detail });
  } finally {
    d.clear();
  }
}

/**
 * Vectors for `texts` (one per text, in order), or null when no embeddings server is configured.
 * Throws an Error (message free of keys) when the server fails; one model_call row either way.
 */
export async function embed(req: EmbedRequest): Promise<EmbedResult | null> {
  const s = req.modelServerId ? await loadServer(req.db, req.modelServerId) : await firstEnabled(req.db, true);
  if (!s) return null;
  const t0 = performance.now();
  const rec = { serverId: s.id, serverName: s.name, model: s.embeddingModel || s.model, kind: 'embed' as const };
  try {
    const r = await embedOn(s, req.texts, req.signal);
    const latencyMs = Math.round(performance.now() - t0);
    const usage = r.usage?.prompt_tokens
      ? { prompt_tokens: r.usage.prompt_tokens, completion_tokens: 0, total_tokens: r.usage.total_tokens ?? r.usage.prompt_tokens }
      : estimateUsage(req.texts.join('\n'), '');
    await recordCall(req.db, { ...rec, outcome: 'ok', latencyMs, usage, cost: costOf(usage, s) }, req.log);
    return { vectors: r.vectors, server: { id: s.id, name: s.name, model: rec.model }, usage, latencyMs };
  } catch (e) {
    const outcome = (e as { outcome?: 'error' | 'timeout' | 'aborted' }).outcome ?? 'error';
    await recordCall(req.db, { ...rec, outcome, error: (e as Error).message, latencyMs: performance.now() - t0 }, req.log);
    throw e;
  }
}
