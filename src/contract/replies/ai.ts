import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Stored, StringEnum } from './typebox.js';

/**
 * Replies of the AI screens' calls, declared once: the server's reply schemas
 * (server/resources/config/playground.ts, server/routes/ai-traces.ts) and the console's types
 * (src/screens/playground, src/screens/trace).
 */

/** `GET prompt/playground-options`: assistants, prompts and enabled model servers */
export const PlaygroundOptionsReply = Type.Object({
  assistants: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), shop_id: Nullable(Type.Integer()), channel: Type.String(), model_server_id: Nullable(Type.Integer()) }),
  ),
  prompts: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), model_server_id: Nullable(Type.Integer()) })),
  model_servers: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});

/** any other key of a trace's row is sent as it is */
const open = { additionalProperties: true } as const;
const n = Type.Number();
const Sampling = Type.Object({ temperature: Type.Optional(Nullable(n)), top_p: Type.Optional(Nullable(n)), max_tokens: Type.Optional(n) });

/** The five signals the decision model weighed (server/ai/knowledge/decide-model.ts SIGNALS), shares of the question's weighted concepts. */
export const DecisionSignals = Type.Object({ held_groups: n, held_words: n, elsewhere_groups: n, elsewhere_words: n, unsaid_words: n });

/**
 * What decided a trace's retrieval (server/ai/knowledge/decide.ts `decidedBy`): the deciding hit's
 * rank (null: nothing retrieved), its confidence — compared with the threshold — and its signals.
 * Absent in traces written before they were recorded.
 */
const DecidedBy = { rank: Type.Optional(Nullable(Type.Integer())), confidence: Type.Optional(n), signals: Type.Optional(DecisionSignals) };

export const TraceHit = Type.Object({
  rank: Type.Integer(),
  source_type: Type.String(),
  source_id: Type.Integer(),
  title: Type.String(),
  chunk_index: Type.Integer(),
  score: n,
  bm25: Nullable(n),
  similarity: Nullable(n),
  relevance: Type.Optional(n),
  relevant: Type.Boolean(),
  text: Type.String(),
});

export const TraceAttempt = Type.Object({
  serverId: Type.Integer(),
  serverName: Type.String(),
  model: Type.String(),
  outcome: Type.String(),
  error: Type.String(),
  latencyMs: n,
  cost: Type.Optional(n),
});

export const TraceScoreEntry = Type.Object({ scorer: Type.String(), score: Nullable(n), passed: Nullable(Type.Boolean()), reason: Type.String(), tokens: Type.Optional(n), cost: Type.Optional(n) });

/** `GET ai-trace/detail?id=`: every step of one answer */
export const TraceReply = Type.Object(
  {
    id: Type.Integer(),
    kind: StringEnum(['playground', 'run', 'chat']),
    ref_type: Type.String(),
    ref_id: Nullable(Type.Integer()),
    shop_id: Nullable(Type.Integer()),
    shop_name: Nullable(Type.String()),
    channel: Nullable(Type.String()),
    assistant_id: Nullable(Type.Integer()),
    assistant_name: Nullable(Type.String()),
    question: Type.String(),
    responder: Type.String(),
    outcome: StringEnum(['ok', 'error', 'fallback', 'builtin']),
    error: Type.String(),
    server_id: Type.Optional(Nullable(Type.Integer())),
    server_name: Type.String(),
    model: Type.String(),
    strategy_id: Nullable(Type.Integer()),
    strategy_name: Nullable(Type.String()),
    divert_id: Nullable(Type.Integer()),
    sampling: Stored(Sampling),
    retrieval: Stored(
      Type.Object({
        terms: Type.Optional(Type.Array(Type.String())),
        expanded: Type.Optional(Type.Array(Type.String())),
        ranking: Type.Optional(Type.String()),
        ranking_note: Type.Optional(Type.String()),
        took_ms: Type.Optional(n),
        decision: Type.Optional(Type.Object({ threshold: n, top_k: Type.Integer(), source: Type.String(), answered: Type.Boolean(), ...DecidedBy })),
        hits: Type.Optional(Type.Array(TraceHit)),
      }),
    ),
    prompt: Stored(Type.Array(Type.Object({ role: Type.String(), content: Type.Unknown() }))),
    completion: Type.String(),
    attempts: Stored(Type.Array(TraceAttempt)),
    score: Nullable(Stored(Type.Object({ outcome: Type.String(), score: Nullable(n), decision: Type.String(), scores: Type.Array(TraceScoreEntry) }))),
    tokens_prompt: Type.Integer(),
    tokens_completion: Type.Integer(),
    retrieval_ms: n,
    latency_ms: n,
    cost: n,
    created_at: Type.String({ format: 'date-time' }),
    retention_days: Type.Integer(),
  },
  open,
);

export const ServerRef = Type.Object({ id: Type.Integer(), name: Type.String(), model: Type.String() });
export const Citation = Type.Object({ source_type: Type.String(), source_id: Type.Integer(), title: Type.String(), score: n });

/**
 * The `done` event of `POST prompt/playground-stream` (Server-Sent Events: start, delta…, then
 * done or error), as server/resources/config/playground.ts `doneEvent` writes it.
 */
export const PlaygroundDone = Type.Object({
  text: Type.String(),
  responder: StringEnum(['builtin', 'model']),
  model: Type.String(),
  /** the server that answered (a strategy's fallback server when the first failed) */
  server: Nullable(ServerRef),
  citations: Type.Array(Citation),
  latency_ms: n,
  tokens: Nullable(Type.Object({ prompt: Type.Integer(), completion: Type.Integer() })),
  cost: n,
  sampling: Nullable(Stored(Sampling)),
  /** the answer's trace (GET ai-trace/detail); null when it could not be written */
  trace_id: Nullable(Type.Integer()),
  /** why another answer came than the one asked for (every model failed, a fallback reply) */
  note: Type.String(),
});

export type PlaygroundOptions = Static<typeof PlaygroundOptionsReply>;
export type ServerRef = Static<typeof ServerRef>;
export type Citation = Static<typeof Citation>;
export type PlaygroundDone = Static<typeof PlaygroundDone>;
export type TraceHit = Static<typeof TraceHit>;
export type DecisionSignals = Static<typeof DecisionSignals>;
export type TraceAttempt = Static<typeof TraceAttempt>;
export type TraceScoreEntry = Static<typeof TraceScoreEntry>;
export type Trace = Static<typeof TraceReply>;
