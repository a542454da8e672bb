import type { Queryable } from '../../db/db.js';

/** One message of a chat (OpenAI shape; image parts only for vision-capable servers). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;
}

/** What the gateway logs through (a Fastify / pino logger fits); messages never hold a key. */
export interface GatewayLog {
  warn(obj: object, msg?: string): void;
}

export interface ChatRequest {
  /** the ROOT database (not a request transaction): the model_call rows must outlive a rollback */
  db: Queryable;
  shopId?: number | null;
  /** 'chat' | 'email' (default 'chat') */
  channel?: string | null;
  /** sticks a session to one side of a traffic split (divertData); hashed, never shown */
  sessionKey?: string;
  messages: ChatMessage[];
  /** a server chosen by the caller (playground, assistant, task): no strategy, no split */
  modelServerId?: number | null;
  /** overrides the strategy's / server's values */
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** called as each attempt starts, with the server it goes to (the playground names it at once) */
  onAttempt?: (server: { id: number; name: string; model: string }, attempt: number) => void;
  /** chat(): read the reply as a stream (same result, streamed from the server) */
  stream?: boolean;
  /** chat() with `stream`: called with each piece of text as it arrives (a fallback reply: once) */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
  log?: GatewayLog;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** the server reported no usage: counted from the text (about 4 characters a token) */
  estimated?: boolean;
}

export type AttemptOutcome = 'ok' | 'error' | 'timeout' | 'aborted';

export interface Attempt {
  serverId: number;
  serverName: string;
  model: string;
  outcome: AttemptOutcome;
  /** the reason, with any API key masked */
  error: string;
  latencyMs: number;
  /** what the attempt cost at the server's prices (0: no price, or it failed before any token) */
  cost?: number;
}

/** The sampling settings sent (null: the server's own default). */
export interface Sampling {
  temperature: number | null;
  top_p: number | null;
  max_tokens: number;
}

export interface ChatResult {
  /**
   * - ok: a model answered
   * - fallback: every model failed; `text` is the configCenter/fallback reply
   * - failed: every model failed and no fallback reply is configured (or the reply broke off
   *   mid-stream, or the caller aborted); `text` may hold what had streamed
   * - no_model: no model server is configured / enabled (the caller answers without one)
   */
  outcome: 'ok' | 'fallback' | 'failed' | 'no_model';
  text: string;
  /** the server that answered (ok), else the last one tried */
  server: { id: number; name: string; model: string } | null;
  usage: Usage;
  /** whole call, all attempts */
  latencyMs: number;
  attempts: Attempt[];
  strategyId: number | null;
  divertId: number | null;
  error?: string;
  /** what the whole call cost at the servers' prices per million tokens */
  cost: number;
  /** the sampling settings sent to the last server tried (null when none was) */
  sampling: Sampling | null;
}

export type StreamEvent = { type: 'delta'; text: string } | ({ type: 'done' } & ChatResult);

/** A model server as the gateway uses it (the key decrypted, in memory only). */
export interface ServerConfig {
  id: number;
  name: string;
  provider: string;
  endpoint: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
  maxTokens: number;
  /** calls at once in one process (more: the attempt fails as busy) */
  maxConcurrency: number;
  supportsVision: boolean;
  supportsEmbeddings: boolean;
  embeddingModel: string;
  enabled: boolean;
  /** price per million prompt / completion tokens (0: not priced) */
  priceInput: number;
  priceOutput: number;
}

/** What lists and pickers show of a server (never a key). */
export interface ServerSummary {
  id: number;
  name: string;
  provider: string;
  model: string;
  enabled: boolean;
  supports_vision: boolean;
  supports_embeddings: boolean;
  embedding_model: string;
  max_tokens: number;
  timeout_ms: number;
}

export interface EmbedResult {
  vectors: number[][];
  server: { id: number; name: string; model: string };
  usage: Usage;
  latencyMs: number;
}

export interface TestResult {
  ok: boolean;
  latency_ms: number;
  model: string;
  /** a few words of the model's reply */
  reply: string;
  error: string;
  /** when the server is marked for embeddings: that endpoint's check */
  embeddings: { ok: boolean; dimensions: number; error: string } | null;
}
