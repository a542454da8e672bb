import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Queryable } from '../../db/db.js';
import { describeOutboundError, outboundFetch } from '../../http/outbound.js';
import { decryptSecret, redactSecret, SecretUnreadable } from '../secrets.js';
import type { AttemptOutcome, ServerConfig, ServerSummary } from './types.js';

interface ServerRow {
  id: number;
  name: string;
  provider: string;
  endpoint: string;
  model: string;
  api_key_enc: string;
  timeout_ms: number;
  max_tokens: number;
  max_concurrency: number;
  supports_vision: boolean;
  supports_embeddings: boolean;
  embedding_model: string;
  enabled: boolean;
  price_input: number | string;
  price_output: number | string;
}

const COLS = `id, name, provider, endpoint, model, api_key_enc, timeout_ms, max_tokens, max_concurrency, supports_vision,
  supports_embeddings, embedding_model, enabled, price_input, price_output`;

/** A row with its key decrypted; an unreadable key becomes `keyError` (the call then fails with it). */
function toConfig(r: ServerRow): ServerConfig & { keyError?: string } {
  let apiKey = '';
  let keyError: string | undefined;
  try {
    apiKey = decryptSecret(r.api_key_enc);
  } catch (e) {
    if (!(e instanceof SecretUnreadable)) throw e;
    keyError = e.message;
  }
  return {
    id: r.id,
    name: r.name,
    provider: r.provider,
    endpoint: r.endpoint,
    model: r.model,
    apiKey,
    timeoutMs: r.timeout_ms,
    maxTokens: r.max_tokens,
    maxConcurrency: r.max_concurrency,
    supportsVision: r.supports_vision,
    supportsEmbeddings: r.supports_embeddings,
    embeddingModel: r.embedding_model,
    enabled: r.enabled,
    priceInput: Number(r.price_input) || 0,
    priceOutput: Number(r.price_output) || 0,
    ...(keyError ? { keyError } : {}),
  };
}

export type LoadedServer = ReturnType<typeof toConfig>;

export async function loadServer(db: Queryable, id: number): Promise<LoadedServer | null> {
  const r = await db.query<ServerRow>(`SELECT ${COLS} FROM config_model_server WHERE id = $1`, [id]);
  return r.rows[0] ? toConfig(r.rows[0]) : null;
}

/** Enabled servers by id, in the order given (unknown or disabled ids left out). */
export async function loadEnabled(db: Queryable, ids: number[]): Promise<LoadedServer[]> {
  if (!ids.length) return [];
  const r = await db.query<ServerRow>(`SELECT ${COLS} FROM config_model_server WHERE enabled AND id = ANY($1::int[])`, [ids]);
  return ids.map((id) => r.rows.find((x) => x.id === id)).filter((x): x is ServerRow => !!x).map(toConfig);
}

/** The first enabled server (lowest id), optionally one that serves embeddings. */
export async function firstEnabled(db: Queryable, embeddings = false): Promise<LoadedServer | null> {
  const r = await db.query<ServerRow>(
    `SELECT ${COLS} FROM config_model_server WHERE enabled${embeddings ? ' AND supports_embeddings' : ''} ORDER BY id LIMIT 1`,
  );
  return r.rows[0] ? toConfig(r.rows[0]) : null;
}

/** Servers for lists and pickers: never a key. */
export async function listModelServers(db: Queryable, opts: { enabledOnly?: boolean } = {}): Promise<ServerSummary[]> {
  const r = await db.query<ServerSummary>(
    `SELECT id, name, provider, model, enabled, supports_vision, supports_embeddings, embedding_model, max_tokens, timeout_ms
       FROM config_model_server${opts.enabledOnly ? ' WHERE enabled' : ''} ORDER BY id`,
  );
  return r.rows;
}

/**
 * An OpenAI client for one server: our own timeout and fallback, so the SDK never retries; every
 * request goes through the outbound-call policy (server/http/outbound.ts: the endpoint is typed
 * by a user, so where it may point is checked at every connection).
 */
export function clientFor(s: ServerConfig): OpenAI {
  return new OpenAI({
    apiKey: s.apiKey || 'no-key',
    baseURL: s.endpoint,
    fetch: outboundFetch,
    timeout: s.timeoutMs,
    maxRetries: 0,
    organization: null,
    project: null,
  });
}

const inFlight = new Map<number, number>();

/**
 * Takes one of the server's `max_concurrency` slots in this process, or throws "busy" (the
 * attempt fails and the strategy's fallback server is tried). Call the returned release once.
 */
export function takeSlot(s: ServerConfig): () => void {
  const n = inFlight.get(s.id) ?? 0;
  if (n >= s.maxConcurrency) throw new Error(`busy: ${n} calls in flight (max concurrency ${s.maxConcurrency}) / 并发已满`);
  inFlight.set(s.id, n + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const left = (inFlight.get(s.id) ?? 1) - 1;
    if (left > 0) inFlight.set(s.id, left);
    else inFlight.delete(s.id);
  };
}

/**
 * The deadline of one attempt: the server's timeout, or the caller's signal, whichever first.
 *
 * The timer is in-process state and holds nothing that must survive a restart: it only aborts
 * this process's own HTTP call to the model server, which dies with the process anyway. What must
 * survive is elsewhere — a scored run is a job (its questions resume from the stored results), a
 * playground stream ends with its client's connection, and the attempt's outcome is written
 * (`model_call`) only when it settles. So a restart loses no work the timer stood for; it is
 * `unref`'d so that it never keeps a stopping process alive on its own (the call's socket does
 * while the call is in flight).
 */
export class Deadline {
  readonly controller = new AbortController();
  timedOut = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.controller.abort();
  constructor(
    ms: number,
    private readonly outer?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, ms);
    this.timer.unref();
    if (outer?.aborted) this.controller.abort();
    else outer?.addEventListener('abort', this.onAbort, { once: true });
  }
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  clear(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onAbort);
  }
}

/**
 * What went wrong, as a short classified reason the caller may see (timeout, refused by the
 * outbound policy, DNS, TLS, could not connect, HTTP status N, bad reply: never the server's reply
 * body), and `detail`: the error's own text with the key masked, for the server log only.
 * Errors the gateway raises itself before calling (busy, an unreadable key) keep their text.
 */
export function classify(e: unknown, d: Deadline, s: ServerConfig): { outcome: AttemptOutcome; error: string; detail: string } {
  let outcome: AttemptOutcome = 'error';
  if (d.timedOut || e instanceof APIConnectionTimeoutError) outcome = 'timeout';
  else if (e instanceof APIUserAbortError || (e as Error)?.name === 'AbortError') outcome = 'aborted';
  let msg: string;
  if (outcome === 'timeout') msg = `no reply within ${s.timeoutMs} ms / ${s.timeoutMs} 毫秒内无响应`;
  else if (outcome === 'aborted') msg = 'cancelled / 已取消';
  else if (e instanceof Error && e.constructor === Error) msg = e.message;
  else msg = describeOutboundError(e, e instanceof APIError ? e.status : undefined).message;
  const raw = e instanceof Error ? `${e.message}${causeOf(e)}` : String(e);
  return { outcome, error: redactSecret(msg, s.apiKey).slice(0, 1000), detail: redactSecret(raw, s.apiKey).slice(0, 1000) };
}

const causeOf = (e: Error): string => {
  const c = (e as { cause?: { code?: string; message?: string } }).cause;
  return c ? ` (${c.code ?? c.message ?? ''})` : '';
};
