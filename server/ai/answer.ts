/**
 * Answering a customer question (docs/ai.md "Answering"): retrieval over the shop's knowledge
 * (server/ai/retrieval), then either
 *   - the built-in responder (no model server needed): the sentences of the best-matching
 *     knowledge that share the most words with the question, cited, labelled
 *     "built-in responder / 内置检索应答"; when nothing in the shop's knowledge matches it says so;
 *   - or a model (retrieval-augmented): the assistant's prompt filled with the retrieved
 *     knowledge, sent through the model gateway's `chat()` (server/ai/gateway).
 *
 * Which one: a model when `modelServerId` is given, or the assistant has a model server, or
 * `useStrategy` asks the gateway to pick by the model strategy / traffic split (it answers
 * `no_model` when nothing is configured → built-in). Otherwise the built-in responder. If the
 * gateway cannot be loaded or every model fails without a fallback reply, the built-in responder
 * answers and `note` says why.
 */
import type { Queryable } from '../db/db.js';
import { judge, usedHits } from './knowledge/decide.js';
import { retrievalSettings } from './knowledge/settings.js';
import { contextQuery } from './follow-up.js';
import { BUILTIN_MODEL, citationOf, composeBuiltin, type Citation } from './respond-builtin.js';
import { DEFAULT_PROMPT, fillPrompt, knowledgeBlock } from './respond-prompt.js';
import { searchKnowledge, type SearchResult } from './retrieval/search.js';
import type { ChatMessage } from './gateway/types.js';
import { tracedRetrieval, type AnswerTrace, type Decision } from './answer-trace.js';

export { BUILTIN_LABEL, type Citation } from './respond-builtin.js';
export { type AnswerTrace } from './answer-trace.js';

/** An earlier turn of the conversation (the playground's, a multi-turn dataset sample's), sent before the question. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface AnswerInput {
  question: string;
  /** the conversation so far, oldest first: sent to the model as messages between the prompt and the question */
  history?: ChatTurn[];
  shopId?: number | null;
  assistantId?: number | null;
  /** a prompt template (`{{shop}}`, `{{knowledge}}` or `{{policies}}`, `{{question}}`); else the assistant's */
  prompt?: string | null;
  modelServerId?: number | null;
  channel?: 'chat' | 'email';
  signal?: AbortSignal;
  /** no server chosen: let the gateway pick one by strategy / traffic split (live replies) */
  useStrategy?: boolean;
  /** a score threshold / top-k to try instead of the assistant's or the knowledge base's (server/ai/knowledge/settings.ts) */
  retrieval?: { threshold?: number | null; topK?: number | null };
  /** sticks a session to one side of a traffic split */
  sessionKey?: string;
  /** a model's reply as it streams (the built-in responder's comes whole in the result) */
  onDelta?: (text: string) => void;
  /** sampling settings sent to the model (else the assistant's, else the strategy's) */
  temperature?: number | null;
  topP?: number | null;
  maxTokens?: number | null;
  /** each model attempt as it starts: the server it goes to (the playground names it at once) */
  onServer?: (server: { id: number; name: string; model: string }, attempt: number) => void;
}

export interface AnswerResult {
  text: string;
  responder: 'builtin' | 'model';
  model: string;
  citations: Citation[];
  latencyMs: number;
  tokens: { prompt: number; completion: number } | null;
  /** why a model was asked for and the built-in responder answered (gateway missing, models failed) */
  note?: string;
  /**
   * A model was asked for and did not answer (the gateway is missing, every server failed or
   * timed out): why. The text is then a stand-in (the configured fallback reply or the built-in
   * responder's), which a scored run must not judge as the model's answer.
   */
  modelFailed?: string;
  /**
   * Nothing in the shop's knowledge passed the retrieval decision (server/ai/knowledge/decide.ts):
   * the built-in responder said it cannot answer, a model was told to say so; either way a
   * colleague is to follow up (a chat hands the conversation over).
   */
  declined: boolean;
  /** the steps behind the answer (retrieval, prompt, attempts, cost) */
  trace: AnswerTrace;
}

/**
 * The candidates each responder decides on: at most this many chunks of one source among the
 * first top-k (the built-in responder quotes the best chunk of each source; a model's prompt takes
 * two). Hit testing decides on the same list for the responder it is asked about.
 */
export const PER_SOURCE = { builtin: 1, model: 2 } as const;
const NO_MODEL_TRACE = { prompt: [], attempts: [], server: null, strategyId: null, divertId: null, sampling: null, cost: 0 } as const;

/**
 * Retrieval and the decision on it (server/ai/knowledge/decide.ts), by the knowledge base's /
 * assistant's threshold and top-k. A follow-up that the knowledge does not answer alone ("how long
 * does that take?") is asked again with the customer's previous question (follow-up.ts).
 */
async function retrieve(db: Queryable, input: AnswerInput, perSource: number): Promise<{ res: SearchResult; d: Decision }> {
  const settings = await retrievalSettings(db, { shopId: input.shopId ?? null, assistantId: input.assistantId ?? null, override: input.retrieval });
  const ask = async (query: string) => {
    const res = await searchKnowledge(db, { query, shopId: input.shopId ?? null, channel: input.channel ?? null, limit: settings.topK, perSource });
    input.signal?.throwIfAborted();
    return { res, d: { settings, query, ...judge(res.hits, res.expansion, settings) } };
  };
  const alone = await ask(input.question);
  const withContext = alone.d.answered ? null : contextQuery(input.question, input.history);
  if (!withContext) return alone;
  const again = await ask(withContext);
  return again.d.answered ? again : alone;
}

async function builtin(db: Queryable, input: AnswerInput, started: number, note?: string): Promise<AnswerResult> {
  const { res, d } = await retrieve(db, input, PER_SOURCE.builtin);
  // the question's language frames the reply; the sentences are picked by what was searched (a follow-up: with the previous question)
  const a = composeBuiltin(input.question, res.hits, res.terms, res.expansion, d.settings);
  const trace: AnswerTrace = { ...NO_MODEL_TRACE, prompt: [], attempts: [], retrieval: tracedRetrieval(res, d), outcome: 'builtin' };
  return {
    text: a.text,
    responder: 'builtin',
    model: BUILTIN_MODEL,
    citations: a.citations,
    latencyMs: Date.now() - started,
    tokens: null,
    declined: a.nothingFound,
    ...(note ? { note } : {}),
    trace,
  };
}

// ─── with a model ───────────────────────────────────────────────────────────────────────────

type Gateway = typeof import('./gateway/index.js');
let gatewayLoad: Promise<Gateway | null> | null = null;
/** The gateway, loaded on first use; null when it cannot be loaded (the built-in responder answers). */
function loadGateway(): Promise<Gateway | null> {
  gatewayLoad ??= import('./gateway/index.js').catch(() => null);
  return gatewayLoad;
}

async function withModel(db: Queryable, input: AnswerInput, serverId: number | null, template: string | null, started: number): Promise<AnswerResult> {
  const gw = await loadGateway();
  if (!gw) {
    const r = await builtin(db, input, started, 'the model gateway is not available; answered by the built-in responder / 模型网关不可用，由内置检索应答回答');
    return { ...r, modelFailed: 'the model gateway is not available / 模型网关不可用', trace: { ...r.trace, outcome: 'error' } };
  }
  const { res, d } = await retrieve(db, input, PER_SOURCE.model);
  const shop = input.shopId ? (await db.query<{ name: string }>(`SELECT name FROM shop WHERE id = $1`, [input.shopId])).rows[0]?.name ?? '' : '';
  // only what the decision uses; nothing used: the prompt says so, and the model is to decline and hand over
  const relevant = usedHits(d);
  const filled = fillPrompt(template ?? DEFAULT_PROMPT, { shop: shop || 'the shop', knowledge: knowledgeBlock(relevant), question: input.question });
  const history = input.history ?? [];
  // with earlier turns the question comes last as its own message, after them, even when the template holds it
  const messages: ChatMessage[] = [
    { role: 'system', content: filled.system },
    ...history.map((t) => ({ role: t.role, content: t.content })),
    ...(filled.askSeparately || history.length ? [{ role: 'user' as const, content: input.question }] : []),
  ];
  const r = await gw.chat({
    db,
    shopId: input.shopId ?? null,
    channel: input.channel ?? 'chat',
    sessionKey: input.sessionKey,
    messages,
    modelServerId: serverId,
    ...(input.temperature != null ? { temperature: input.temperature } : {}),
    ...(input.topP != null ? { topP: input.topP } : {}),
    ...(input.maxTokens != null ? { maxTokens: input.maxTokens } : {}),
    stream: Boolean(input.onDelta),
    onDelta: input.onDelta,
    onAttempt: input.onServer,
    signal: input.signal,
  });
  input.signal?.throwIfAborted();
  if (r.outcome === 'no_model') return builtin(db, input, started);
  const why = (r.error ?? '').slice(0, 500) || 'no reply / 无回复';
  const trace: AnswerTrace = {
    retrieval: tracedRetrieval(res, d),
    prompt: messages,
    attempts: r.attempts,
    server: r.server,
    strategyId: r.strategyId,
    divertId: r.divertId,
    sampling: r.sampling,
    outcome: r.outcome === 'ok' ? 'ok' : r.outcome === 'fallback' ? 'fallback' : 'error',
    cost: r.cost,
  };
  if (r.outcome === 'failed') {
    const b = await builtin(db, input, started, `every model failed (${why.slice(0, 200)}); answered by the built-in responder / 模型调用失败，由内置检索应答回答`);
    return { ...b, modelFailed: why, trace };
  }
  return {
    text: r.text,
    responder: 'model',
    model: r.outcome === 'fallback' ? 'fallback reply' : r.server?.model ?? '',
    citations: r.outcome === 'ok' ? relevant.map(citationOf) : [],
    latencyMs: Date.now() - started,
    tokens: { prompt: r.usage.prompt_tokens, completion: r.usage.completion_tokens },
    declined: !d.answered,
    ...(r.outcome === 'fallback' ? { note: `every model failed; the configured fallback reply was sent / 模型均失败，已发送兜底回复`, modelFailed: why } : {}),
    trace,
  };
}

// ─── entry point ────────────────────────────────────────────────────────────────────────────

interface AssistantRow {
  prompt: string;
  model_server_id?: number | null;
  use_strategy?: boolean;
  temperature?: string | number | null;
  top_p?: string | number | null;
  max_tokens?: number | null;
}

export async function answerQuestion(db: Queryable, input: AnswerInput): Promise<AnswerResult> {
  const started = Date.now();
  input.signal?.throwIfAborted();
  let serverId = input.modelServerId ?? null;
  let template = input.prompt?.trim() ? input.prompt : null;
  let useStrategy = input.useStrategy ?? false;
  let ask = input;
  if (input.assistantId) {
    const a = (await db.query<AssistantRow>(`SELECT * FROM chat_assistant WHERE id = $1`, [input.assistantId])).rows[0];
    if (a) {
      template ??= a.prompt?.trim() ? a.prompt : null;
      // the assistant's server, else (when it says so) its shop and channel's model strategy
      if (!serverId && !useStrategy) {
        serverId = a.model_server_id ?? null;
        useStrategy = !serverId && a.use_strategy === true;
      }
      // its sampling settings, unless the caller gave its own
      const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
      ask = { ...input, temperature: input.temperature ?? num(a.temperature), topP: input.topP ?? num(a.top_p), maxTokens: input.maxTokens ?? num(a.max_tokens) };
    }
  }
  if (serverId || useStrategy) return withModel(db, ask, serverId, template, started);
  return builtin(db, ask, started);
}
