/** testConnection: a tiny chat call to a model server, plus an embeddings call when it is marked for them. */
import type { Queryable } from '../../db/db.js';
import { invalid } from '../../http/errors.js';
import { embedOn, type EmbedFailed } from './embed.js';
import { recordCall } from './record.js';
import { classify, clientFor, Deadline, loadServer } from './servers.js';
import type { GatewayLog, TestResult } from './types.js';

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
