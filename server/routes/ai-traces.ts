/**
 * Traces of answers (docs/ai.md "Traces"): `GET ai-trace/detail?id=` — every step of one answer
 * (the question, the knowledge retrieved with its scores and the decision, the prompt sent, the
 * completion, each gateway attempt, tokens, latency, cost, the scorer's decision);
 * `GET ai-trace/settings` / `POST ai-trace/settings { retention_days }` — how long traces are kept.
 * A trace is opened from the playground, a run's result row and a chat message, so any of those
 * pages' keys reads it.
 */
import { Type } from '@sinclair/typebox';
import { DEFAULT_RETENTION_DAYS, retentionDays, setRetentionDays } from '../ai/trace.js';
import { notFound } from '../http/errors.js';
import { defineRoutes, route, type RouteDef } from '../http/route.js';
import { LK } from '../resources/lab/keys.js';
import { SK } from '../resources/sessions/keys.js';
import { TraceReply, type Trace } from '../../src/contract/replies/ai.js';

/** The trace page (a hidden page of script management, src/screens/trace). */
export const TRACE_PAGE_KEY = 'intelligent_text.text.script_manage.trace';
const READERS = [TRACE_PAGE_KEY, SK.playground, SK.chat, LK.testTask.result, LK.testTask.detail, LK.ratingTask.result, LK.ratingTask.detail];

const COLS = `t.id::int AS id, t.kind, t.ref_type, t.ref_id::int AS ref_id, t.shop_id, (SELECT s.name FROM shop s WHERE s.id = t.shop_id) AS shop_name,
  t.channel, t.assistant_id, (SELECT a.name FROM chat_assistant a WHERE a.id = t.assistant_id) AS assistant_name, t.question, t.responder,
  t.outcome, t.error, t.server_id, t.server_name, t.model, t.strategy_id, (SELECT m.name FROM config_model_strategy m WHERE m.id = t.strategy_id) AS strategy_name,
  t.divert_id, t.sampling, t.retrieval, t.prompt, t.completion, t.attempts, t.score, t.tokens_prompt, t.tokens_completion,
  t.retrieval_ms, t.latency_ms, t.cost::float8 AS cost, t.created_at`;

const routes: RouteDef[] = defineRoutes([
  route({
    method: 'GET',
    path: 'ai-trace/detail',
    access: { permission: READERS },
    summary: 'One answer traced: question, retrieval (hits with scores, the decision), prompt sent, completion, attempts, tokens, latency, cost, score',
    query: Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }, { additionalProperties: false }),
    reply: TraceReply,
    async handler(ctx) {
      const r = await ctx.db.query<Omit<Trace, 'retention_days'>>(`SELECT ${COLS} FROM ai_trace t WHERE t.id = $1`, [ctx.query.id]);
      if (!r.rows[0]) throw notFound('trace / 追踪');
      return { ...r.rows[0], retention_days: await retentionDays(ctx.db) };
    },
  }),
  route({
    method: 'GET',
    path: 'ai-trace/settings',
    access: { permission: READERS },
    summary: 'How many days traces are kept',
    query: Type.Object({}, { additionalProperties: false }),
    reply: Type.Object({ retention_days: Type.Integer(), default_days: Type.Integer() }),
    handler: async (ctx) => ({ retention_days: await retentionDays(ctx.db), default_days: DEFAULT_RETENTION_DAYS }),
  }),
  route({
    method: 'POST',
    path: 'ai-trace/settings',
    access: { permission: [SK.server] },
    summary: 'Set how many days traces are kept (1–3650); older ones are deleted by the ai.trace-sweep ticker',
    body: Type.Object({ retention_days: Type.Integer({ minimum: 1, maximum: 3650 }) }, { additionalProperties: false }),
    reply: Type.Object({ retention_days: Type.Integer() }),
    async handler(ctx) {
      const before = await retentionDays(ctx.db);
      await setRetentionDays(ctx.db, ctx.body.retention_days);
      await ctx.audit({ action: 'update', resource: 'ai_trace_settings', before: { retention_days: before }, after: { retention_days: ctx.body.retention_days } });
      return { retention_days: ctx.body.retention_days };
    },
  }),
]);

export { routes };
