/**
 * The model gateway: every model call of the console goes through here (docs/ai.md "The gateway").
 * Model servers are OpenAI-compatible endpoints (configCenter/server) called with the official
 * `openai` package: vLLM, Ollama, llama.cpp's server, LiteLLM and hosted APIs.
 *
 *   chat(req: ChatRequest): Promise<ChatResult>
 *     req = { db, shopId?, channel?, sessionKey?, messages, modelServerId?, temperature?, topP?, maxTokens?,
 *             stream?, onDelta?, onAttempt?, signal?, log? }
 *     - temperature / top_p / max_tokens: the caller's (an assistant's), else the strategy's, are
 *       sent (`sampling` in the result); max tokens never past the server's own bound.
 *     - `cost`: the tokens at the servers' prices per million (config_model_server.price_*).
 *     - `stream` / `onDelta`: the server streams; `onDelta(text)` gets each piece as it comes
 *       (what the playground forwards to the browser); the result is the same.
 *     - `db` is the ROOT database (model_call rows must survive the caller's rollback).
 *     - With `modelServerId`: that server only (40001 when it does not exist or is disabled).
 *     - Without: the traffic split of configCenter/divertData (the session key's bucket 0–99,
 *       sticky by hashing; a shop's own splits replace the global ones), else the most specific
 *       model strategy (shop+channel, shop, channel, global), else the first enabled server.
 *       A strategy's fallback server is tried when the first errs or times out (its
 *       `timeout_ms`); when every server fails, the configCenter/fallback reply (shop's, else
 *       global, same channel) is the answer (`outcome: 'fallback'`).
 *     - outcome 'no_model': nothing configured — the caller answers without a model
 *       (server/ai/answer.ts: the built-in responder).
 *     - Never throws for a model failure (see `outcome`, `error`, `attempts`); throws 40001 for
 *       a bad `modelServerId`, and database errors.
 *
 *   chatStream(req: ChatRequest): AsyncGenerator<StreamEvent>
 *     `{ type: 'delta', text }` as the server streams, then one `{ type: 'done', ...ChatResult }`
 *     (usage: the server's, or estimated when it reports none). A reply that breaks off after
 *     text was sent ends as `failed` (text so far kept) instead of moving to the next server.
 *
 *   embed({ db, texts, modelServerId?, signal?, log? }): Promise<EmbedResult | null>
 *     One vector per text from the first enabled server marked `supports_embeddings` (its
 *     `embedding_model`); null when there is none. Throws Error (key-free message) on failure.
 *
 *   testConnection(db, modelServerId, { signal?, log? }): Promise<TestResult>
 *     A one-word chat (and an embeddings call when marked): `{ ok, latency_ms, reply, error, … }`.
 *
 *   listModelServers(db, { enabledOnly? }): Promise<ServerSummary[]>   (never a key)
 *
 * Every call attempt, test and fallback reply is one `model_call` row (server, model, latency,
 * tokens, outcome, error); `GET model-call/list` shows them. API keys are decrypted only here,
 * in memory, and masked in every error text.
 */
export { chat, chatStream, samplingFor } from './chat.js';
export { costOf } from './record.js';
export { embed, type EmbedRequest } from './embed.js';
export { testConnection } from './connection-test.js';
export { listModelServers } from './servers.js';
export { bucketOf, pickDivert } from './plan.js';
export type {
  Attempt,
  ChatMessage,
  ChatRequest,
  ChatResult,
  EmbedResult,
  GatewayLog,
  Sampling,
  ServerSummary,
  StreamEvent,
  TestResult,
  Usage,
} from './types.js';
