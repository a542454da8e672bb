/** embed (the embeddings endpoint) and testConnection (a tiny chat call, plus embeddings when marked). */
import type { Queryable } from '../../db/db.js';
import { invalid } from '../../http/errors.js';
import { costOf, estimateUsage, recordCall } from './record.js';
import { classify, clientFor, Deadline, firstEnabled, loadServer, type LoadedServer } from './servers.js';
import type { EmbedResult, GatewayLog, TestResult } from './types.js';

export interface EmbedRequest {
  db: Queryable;
  texts: string[];
  /** default: the first enabled server marked for embeddings */
  modelServerId?: number | null;
  signal?: AbortSignal;
  log?: GatewayLog;
}

/** An embeddings call that failed: `message` is the classified reason, `detail` the log's text. */
class EmbedFailed extends Error {
  outcome: 'error' | 'timeout' | 'aborted' = 'error';
  detail = '';
}

async function embedOn(s: LoadedServer, texts: string[], signal?: AbortSignal) {
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

/**
 * Calls a server once (a one-word chat; and its embeddings endpoint when it is marked for them)
 * and says whether it answered. Records a model_call row (kind `test`); never throws for a
 * server failure — `ok: false` and the reason (keys masked).
 */
export async function testConnection(db: Queryable, modelServerId: number, opts: { signal?: AbortSignal; log?: GatewayLog } = {}): Promise<TestResult> {
  const s = await loadServer(db, modelServerId);
  if (!s) throw invalid([{ field: 'id', message: `${modelServerId} does not exist / 模型服务不存在` }]);
  const out: TestResult = { ok: false, latency_ms: 0, model: s.model, reply: '', error: '', embeddings: null };
  const t0 = performance.now();
  const d = new Deadline(s.timeoutMs, opts.signal);
  try {
    if (s.keyError) throw new Error(s.keyError);
    if (!s.endpoint) throw new Error('no endpoint configured / 未配置接口地址');
    const r = await clientFor(s).chat.completions.create(
      { model: s.model, messages: [{ role: 'user', content: 'Reply with the single word: pong' }], max_tokens: 8, stream: false },
      { signal: d.signal, timeout: s.timeoutMs, maxRetries: 0 },
    );
    out.ok = true;
    out.reply = (r.choices[0]?.message?.content ?? '').slice(0, 200);
  } catch (e) {
    const c = classify(e, d, s);
    out.error = c.error;
    opts.log?.warn({ modelServer: s.id, error: out.error, detail: c.detail }, 'model server test failed');
  } finally {
    d.clear();
    out.latency_ms = Math.round(performance.now() - t0);
  }
  await recordCall(db, { serverId: s.id, serverName: s.name, model: s.model, kind: 'test', outcome: out.ok ? 'ok' : 'error', error: out.error, latencyMs: out.latency_ms }, opts.log);
  if (s.supportsEmbeddings) {
    try {
      const r = await embedOn(s, ['ping'], opts.signal);
      out.embeddings = { ok: true, dimensions: r.vectors[0]?.length ?? 0, error: '' };
    } catch (e) {
      opts.log?.warn({ modelServer: s.id, error: (e as Error).message, detail: (e as EmbedFailed).detail }, 'model server embeddings test failed');
      out.embeddings = { ok: false, dimensions: 0, error: (e as Error).message };
      out.ok = false;
      out.error ||= `embeddings: ${(e as Error).message}`;
    }
  }
  return out;
}
