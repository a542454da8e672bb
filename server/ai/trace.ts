/**
 * Traces (docs/ai.md "Traces"): one row of `ai_trace` per answer — the playground, a scored run's
 * question, a chat reply — holding every step of it: the question, the knowledge retrieved with
 * its scores and the decision on it, the prompt sent, the completion, every attempt of the
 * gateway (server, outcome, latency, cost), tokens, latency, cost and, in a run, the scorer's
 * decision. API keys never reach a trace: the keys of the servers it went to, and anything shaped
 * like a key or a bearer token, are masked before it is written. Traces are kept
 * `ai.trace_retention_days` days (app_setting, default 30) and swept by the `ai.trace-sweep` ticker.
 */
import type { Queryable } from '../db/db.js';
import type { Ticker } from '../jobs/types.js';
import type { AnswerResult } from './answer.js';
import { loadEnabled } from './gateway/servers.js';
import { maskSecret, redactSecret } from './secrets.js';

export const TRACE_KINDS = ['playground', 'run', 'chat'] as const;
export type TraceKind = (typeof TRACE_KINDS)[number];

export const RETENTION_KEY = 'ai.trace_retention_days';
export const DEFAULT_RETENTION_DAYS = 30;

/** The scorer's decision on a run's answer, as the trace keeps it. */
export interface TraceScore {
  outcome: 'pass' | 'fail' | 'error';
  score: number | null;
  decision: string;
  scores: unknown[];
}

export interface TraceInput {
  kind: TraceKind;
  question: string;
  shopId?: number | null;
  channel?: string | null;
  assistantId?: number | null;
  answer: AnswerResult;
  refType?: string;
  refId?: number | null;
  createdBy?: number | null;
  score?: TraceScore | null;
}

/** Anything shaped like an API key or a bearer token (sk-…, Bearer …, "api_key": "…"). */
const KEY_SHAPES: Array<[RegExp, (m: string, ...g: string[]) => string]> = [
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{12,}\b/g, (m) => maskSecret(m)],
  [/\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi, (_m, b) => `${b} [redacted]`],
  [/((?:api[_-]?key|secret|password|token)["']?\s*[:=]\s*["']?)[^\s"',}]{6,}/gi, (_m, k) => `${k}[redacted]`],
];

/** The text with the given keys and every key-shaped string masked. */
export function redactKeys(text: string, keys: string[] = []): string {
  let t = text;
  for (const k of keys) t = redactSecret(t, k);
  for (const [re, fn] of KEY_SHAPES) t = t.replace(re, fn as (m: string, ...g: string[]) => string);
  return t;
}

/** Every string inside a JSON value redacted (redactKeys). */
function redactDeep<T>(v: T, keys: string[]): T {
  if (typeof v === 'string') return redactKeys(v, keys) as T;
  if (Array.isArray(v)) return v.map((x) => redactDeep(x, keys)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactDeep(x, keys)])) as T;
  return v;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Writes the trace of one answer (on the root database: it outlives the caller's rollback); its id, or null when it could not be written. */
export async function writeTrace(db: Queryable, t: TraceInput, log?: { warn(obj: object, msg?: string): void }): Promise<number | null> {
  try {
    const a = t.answer;
    const tr = a.trace;
    const serverIds = [...new Set(tr.attempts.map((x) => x.serverId))];
    const keys = serverIds.length ? (await loadEnabled(db, serverIds)).map((s) => s.apiKey).filter(Boolean) : [];
    const outcome = a.modelFailed ? (tr.outcome === 'fallback' ? 'fallback' : 'error') : tr.outcome;
    const r = await db.query<{ id: string }>(
      `INSERT INTO ai_trace (kind, ref_type, ref_id, shop_id, channel, assistant_id, question, responder, outcome, error,
         server_id, server_name, model, strategy_id, divert_id, sampling, retrieval, prompt, completion, attempts, score,
         tokens_prompt, tokens_completion, retrieval_ms, latency_ms, cost, created_by)
       VALUES ($1, $2, $3, (SELECT id FROM shop WHERE id = $4), $5, (SELECT id FROM chat_assistant WHERE id = $6), $7, $8, $9, $10,
         (SELECT id FROM config_model_server WHERE id = $11), $12, $13, (SELECT id FROM config_model_strategy WHERE id = $14),
         (SELECT id FROM config_divert WHERE id = $15), $16::jsonb, $17::jsonb, $18::jsonb, $19, $20::jsonb, $21::jsonb,
         $22, $23, $24, $25, $26, $27)
       RETURNING id`,
      [
        t.kind,
        t.refType ?? '',
        t.refId ?? null,
        t.shopId ?? null,
        t.channel ?? null,
        t.assistantId ?? null,
        redactKeys(cut(t.question, 4000), keys),
        a.responder,
        outcome,
        redactKeys(cut(a.modelFailed ?? a.note ?? '', 2000), keys),
        tr.server?.id ?? null,
        (tr.server?.name ?? '').slice(0, 100),
        (a.responder === 'builtin' ? a.model : tr.server?.model ?? a.model).slice(0, 100),
        tr.strategyId,
        tr.divertId,
        JSON.stringify(tr.sampling ?? {}),
        JSON.stringify(redactDeep(tr.retrieval ?? {}, keys)),
        JSON.stringify(redactDeep(tr.prompt, keys)),
        redactKeys(cut(a.text, 20000), keys),
        JSON.stringify(redactDeep(tr.attempts, keys)),
        t.score ? JSON.stringify(redactDeep(t.score, keys)) : null,
        a.tokens?.prompt ?? 0,
        a.tokens?.completion ?? 0,
        tr.retrieval?.took_ms ?? 0,
        Math.max(0, Math.round(a.latencyMs)),
        tr.cost,
        t.createdBy ?? null,
      ],
    );
    return Number(r.rows[0].id);
  } catch (e) {
    log?.warn({ err: { message: (e as Error).message } }, 'ai_trace not written');
    return null;
  }
}

/** Days a trace is kept (app_setting, default 30). */
export async function retentionDays(db: Queryable): Promise<number> {
  const r = await db.query<{ value: { days?: number } }>(`SELECT value FROM app_setting WHERE key = $1`, [RETENTION_KEY]);
  const d = Number(r.rows[0]?.value?.days);
  return Number.isInteger(d) && d >= 1 ? d : DEFAULT_RETENTION_DAYS;
}

export async function setRetentionDays(db: Queryable, days: number): Promise<void> {
  await db.query(
    `INSERT INTO app_setting (key, value, updated_at) VALUES ($1, $2::jsonb, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [RETENTION_KEY, JSON.stringify({ days })],
  );
}

/** Deletes the traces older than the retention (in batches); how many went. */
export async function sweepTraces(db: Queryable, now: Date): Promise<number> {
  const days = await retentionDays(db);
  const before = new Date(now.getTime() - days * 86_400_000);
  let gone = 0;
  for (let i = 0; i < 20; i++) {
    const r = await db.query(`DELETE FROM ai_trace WHERE id IN (SELECT id FROM ai_trace WHERE created_at < $1 ORDER BY id LIMIT 5000)`, [before]);
    const n = r.affectedRows;
    gone += n;
    if (n < 5000) break;
  }
  return gone;
}

/** `ai.trace-sweep`: every 10 minutes, one process at a time, traces past their retention are deleted. */
export const traceSweepTicker: Ticker = {
  name: 'ai.trace-sweep',
  everySeconds: 600,
  async run({ db, now }) {
    await sweepTraces(db, now());
  },
};
