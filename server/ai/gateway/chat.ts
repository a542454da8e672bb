/**
 * chat / chatStream: the plan's servers in order (a failure or timeout moves to the next),
 * then the fallback reply. Every attempt and every fallback reply is one model_call row.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { fallbackReply, resolvePlan, type Plan } from './plan.js';
import { costOf, estimateUsage, recordCall } from './record.js';
import { classify, clientFor, Deadline, takeSlot, type LoadedServer } from './servers.js';
import type { Attempt, ChatRequest, ChatResult, Sampling, StreamEvent, Usage } from './types.js';

const ZERO: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

const promptText = (req: ChatRequest) =>
  req.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join(' '))).join('\n');

/** The sampling settings of one attempt: the caller's, else the strategy's; max tokens never past the server's bound. */
export function samplingFor(req: Pick<ChatRequest, 'temperature' | 'topP' | 'maxTokens'>, plan: Pick<Plan, 'temperature' | 'maxTokens'>, s: { maxTokens: number }): Sampling {
  return {
    temperature: req.temperature ?? plan.temperature ?? null,
    top_p: req.topP ?? null,
    max_tokens: Math.min(req.maxTokens ?? plan.maxTokens ?? s.maxTokens, s.maxTokens),
  };
}

function params(req: ChatRequest, plan: Plan, s: LoadedServer) {
  const p = samplingFor(req, plan, s);
  return {
    model: s.model,
    messages: req.messages as ChatCompletionMessageParam[],
    max_tokens: p.max_tokens,
    ...(p.temperature === null ? {} : { temperature: p.temperature }),
    ...(p.top_p === null ? {} : { top_p: p.top_p }),
  };
}

function usageOf(u: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined, req: ChatRequest, text: string): Usage {
  if (!u || (!u.prompt_tokens && !u.completion_tokens && !u.total_tokens)) return estimateUsage(promptText(req), text);
  const p = u.prompt_tokens ?? 0;
  const c = u.completion_tokens ?? 0;
  return { prompt_tokens: p, completion_tokens: c, total_tokens: u.total_tokens ?? p + c };
}

/** One attempt on one server; `onDelta` makes it a streamed one. Throws what the server did. */
async function attempt(req: ChatRequest, plan: Plan, s: LoadedServer, d: Deadline, onDelta?: (t: string) => void): Promise<{ text: string; usage: Usage }> {
  if (s.keyError) throw new Error(s.keyError);
  if (!s.endpoint) throw new Error('no endpoint configured / 未配置接口地址');
  const release = takeSlot(s);
  try {
    return await call(req, plan, s, d, onDelta);
  } finally {
    release();
  }
}

async function call(req: ChatRequest, plan: Plan, s: LoadedServer, d: Deadline, onDelta?: (t: string) => void): Promise<{ text: string; usage: Usage }> {
  const client = clientFor(s);
  const opts = { signal: d.signal, timeout: s.timeoutMs, maxRetries: 0 };
  if (!onDelta) {
    const r = await client.chat.completions.create({ ...params(req, plan, s), stream: false }, opts);
    const text = r.choices[0]?.message?.content ?? '';
    return { text, usage: usageOf(r.usage, req, text) };
  }
  const stream = await client.chat.completions.create({ ...params(req, plan, s), stream: true, stream_options: { include_usage: true } }, opts);
  let text = '';
  let reported: Parameters<typeof usageOf>[0] = null;
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta?.content;
    if (delta) {
      text += delta;
      onDelta(delta);
    }
    if (chunk.usage) reported = chunk.usage;
  }
  return { text, usage: usageOf(reported, req, text) };
}

/**
 * The whole call as an event source: `emit` receives the deltas. Streamed deltas of a failed
 * attempt cannot be taken back, so a reply that breaks off mid-stream ends the call (`failed`)
 * instead of moving on to the next server.
 */
async function run(req: ChatRequest, emit?: (t: string) => void): Promise<ChatResult> {
  const t0 = performance.now();
  const plan = await resolvePlan(req.db, req);
  const base = { strategyId: plan.strategyId, divertId: plan.divertId };
  const where = { shopId: req.shopId, channel: req.channel ?? 'chat', sessionKey: req.sessionKey, ...base };
  const attempts: Attempt[] = [];
  let sampling: Sampling | null = null;
  const done = (r: Omit<ChatResult, 'latencyMs' | 'attempts' | 'strategyId' | 'divertId' | 'cost' | 'sampling'>): ChatResult => ({
    ...r,
    ...base,
    attempts,
    latencyMs: Math.round(performance.now() - t0),
    cost: Math.round(attempts.reduce((x, a) => x + (a.cost ?? 0), 0) * 1e6) / 1e6,
    sampling,
  });
  if (!plan.servers.length && plan.strategyId === null) return done({ outcome: 'no_model', text: '', server: null, usage: ZERO });
  let last: LoadedServer | null = null;
  for (const [i, s] of plan.servers.entries()) {
    last = s;
    sampling = samplingFor(req, plan, s);
    req.onAttempt?.({ id: s.id, name: s.name, model: s.model }, i + 1);
    const d = new Deadline(s.timeoutMs, req.signal);
    const a0 = performance.now();
    let streamed = '';
    try {
      const r = await attempt(req, plan, s, d, emit && ((t) => ((streamed += t), emit(t))));
      const latencyMs = Math.round(performance.now() - a0);
      const cost = costOf(r.usage, s);
      attempts.push({ serverId: s.id, serverName: s.name, model: s.model, outcome: 'ok', error: '', latencyMs, cost });
      await recordCall(req.db, { ...where, serverId: s.id, serverName: s.name, model: s.model, kind: 'chat', attempt: i + 1, stream: !!emit, outcome: 'ok', latencyMs, usage: r.usage, cost }, req.log);
      return done({ outcome: 'ok', text: r.text, server: { id: s.id, name: s.name, model: s.model }, usage: r.usage });
    } catch (e) {
      const { outcome, error, detail } = classify(e, d, s);
      const latencyMs = Math.round(performance.now() - a0);
      const usage = streamed ? estimateUsage(promptText(req), streamed) : undefined;
      const cost = costOf(usage, s);
      attempts.push({ serverId: s.id, serverName: s.name, model: s.model, outcome, error, latencyMs, cost });
      await recordCall(req.db, { ...where, serverId: s.id, serverName: s.name, model: s.model, kind: 'chat', attempt: i + 1, stream: !!emit, outcome, error, latencyMs, usage, cost }, req.log);
      req.log?.warn({ modelServer: s.id, outcome, error, detail }, 'model call failed');
      if (outcome === 'aborted' || streamed) {
        return done({ outcome: 'failed', text: streamed, server: { id: s.id, name: s.name, model: s.model }, usage: usage ?? ZERO, error });
      }
    } finally {
      d.clear();
    }
  }
  const error = attempts.length ? attempts.map((a) => `${a.serverName}: ${a.error}`).join('; ') : 'the strategy names no enabled model server / 策略中的模型服务均未启用';
  const server = last && { id: last.id, name: last.name, model: last.model };
  const reply = await fallbackReply(req.db, req.shopId, req.channel);
  if (reply === null) return done({ outcome: 'failed', text: '', server, usage: ZERO, error });
  await recordCall(req.db, { ...where, serverId: null, serverName: '', model: '', kind: 'chat', attempt: attempts.length + 1, stream: !!emit, outcome: 'fallback', error, latencyMs: 0 }, req.log);
  emit?.(reply);
  return done({ outcome: 'fallback', text: reply, server, usage: ZERO, error });
}

/** One reply (streamed from the server when `req.stream` or `req.onDelta`, the same result either way). */
export function chat(req: ChatRequest): Promise<ChatResult> {
  return run(req, req.stream || req.onDelta ? (t) => req.onDelta?.(t) : undefined);
}

/** The reply as it comes: `{ type: 'delta', text }` events, then one `{ type: 'done', ...ChatResult }`. */
export async function* chatStream(req: ChatRequest): AsyncGenerator<StreamEvent, void, undefined> {
  const queue: string[] = [];
  let wake: (() => void) | null = null;
  let finished: { result?: ChatResult; error?: unknown } | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  run(req, (t) => {
    queue.push(t);
    poke();
  }).then(
    (result) => ((finished = { result }), poke()),
    (error) => ((finished = { error }), poke()),
  );
  for (;;) {
    while (queue.length) yield { type: 'delta', text: queue.shift()! };
    if (finished) break;
    await new Promise<void>((r) => (wake = r));
  }
  const f = finished as { result?: ChatResult; error?: unknown };
  if (f.error) throw f.error;
  yield { type: 'done', ...f.result! };
}
