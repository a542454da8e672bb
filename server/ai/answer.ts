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
import { coverage, expandQuery, type Expansion } from './knowledge/lexicon.js';
import { isChinese, tokenize } from './knowledge/segment.js';
import { searchKnowledge, type Hit } from './retrieval/search.js';

export interface AnswerInput {
  question: string;
  shopId?: number | null;
  assistantId?: number | null;
  /** a prompt template (`{{shop}}`, `{{knowledge}}` or `{{policies}}`, `{{question}}`); else the assistant's */
  prompt?: string | null;
  modelServerId?: number | null;
  channel?: 'chat' | 'email';
  signal?: AbortSignal;
  /** no server chosen: let the gateway pick one by strategy / traffic split (live replies) */
  useStrategy?: boolean;
  /** sticks a session to one side of a traffic split */
  sessionKey?: string;
  /** a model's reply as it streams (the built-in responder's comes whole in the result) */
  onDelta?: (text: string) => void;
}

export interface Citation {
  source_type: string;
  source_id: number;
  title: string;
  score: number;
  /** the chunk that was used */
  chunk?: string;
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
}

/** The label of every built-in answer. */
export const BUILTIN_LABEL = 'built-in responder / 内置检索应答';
export const BUILTIN_MODEL = 'builtin';
export const NOTHING_FOUND = {
  en: "I couldn't find anything in this shop's knowledge that answers this, so I can't give you a reliable answer. A member of our team will follow up.",
  zh: '抱歉，店铺的知识库里没有找到能回答这个问题的内容，我无法给出可靠的答复，稍后会由人工客服跟进。',
};

/** Knowledge put into a model's prompt. */
const MODEL_CONTEXT = { limit: 6, perSource: 2 };
const DEFAULT_PROMPT = `You are the customer service assistant of {{shop}}. Answer the customer's question using only the knowledge below; if it does not answer the question, say so and offer to pass the question to a human colleague. Answer in the customer's language.

Knowledge:
{{knowledge}}`;

// ─── the built-in responder ─────────────────────────────────────────────────────────────────

/**
 * With hybrid ranking (an embeddings server is configured), a hit whose vector is at least this
 * close to the question's (cosine) answers it even when it shares none of the question's words:
 * "send my purchase back" finds the return policy. Embedding models put paraphrases well above
 * 0.6 and unrelated passages of one shop below it; a lower bar lets the built-in responder quote
 * passages that are merely about the same shop.
 */
export const VECTOR_RELEVANT = 0.6;

/**
 * The share of the question's concepts (server/ai/knowledge/lexicon.ts: a group of the lexicon
 * the question touches — 退货 / return / send back —, or a content word of the question in no
 * group) a passage must have to answer it: the rank alone says nothing, since the best of a
 * shop's passages is still the best when nothing answers ("a pick-up store" finds the product care
 * guide). Chosen on tests/api/ai/demo-knowledge.test.ts's labelled questions (docs/ai.md).
 */
export const MIN_COVERAGE = 0.6;

/**
 * A hit answers the question when its vector is close (above), or when its title and text hold at
 * least MIN_COVERAGE of the question's concepts.
 */
export function isRelevant(hit: Pick<Hit, 'score' | 'title' | 'text'> & { similarity?: number | null }, concepts: string[][]): boolean {
  if (hit.similarity != null && hit.similarity >= VECTOR_RELEVANT) return true;
  if (!concepts.length || hit.score <= 0) return false;
  return coverage(concepts, `${hit.title}\n${hit.text}`) >= MIN_COVERAGE;
}

/** The question's words a hit contains (title and text). */
const termsOf = (h: Pick<Hit, 'title' | 'text'>, terms: Set<string>) => new Set(tokenize(`${h.title}\n${h.text}`).filter((w) => terms.has(w)));

/** Sentences of a chunk (Chinese and English ends, lines). */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const parts = line.match(/[^。！？!?]*[。！？!?]+[」』"”']?|[^。！？!?]+$/gu) ?? [line];
    for (const p of parts) {
      // English sentences inside: split on ". " (not inside numbers like 3.5)
      for (const s of p.split(/(?<=[a-z0-9)\]][.;])\s+(?=[A-Z0-9"“(])/u)) {
        const t = s.trim();
        if (t) out.push(t);
      }
    }
  }
  return out;
}

/**
 * The few sentences of `text` that answer the question best, in their order: each sentence is
 * scored by the question's words it has, a word that few of the sentences have counting more
 * ("98" in a size table, where every line has "chest" and "cm"); sentences under half the best
 * score are left out. With `lead`, the first sentence is always among them.
 */
export function bestSentences(text: string, terms: Set<string>, max = 3, maxChars = 420, lead = false): string[] {
  const sents = sentencesOf(text);
  const words = sents.map((s) => new Set(tokenize(s).filter((w) => terms.has(w))));
  const df = new Map<string, number>();
  for (const ws of words) for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
  const scored = sents.map((s, i) => {
    let score = 0;
    for (const w of words[i]) score += Math.log(1 + sents.length / df.get(w)!);
    return { i, s, score };
  });
  const best = Math.max(0, ...scored.map((x) => x.score));
  const picked = scored
    .filter((x) => x.score > 0 && x.score >= best / 2)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max);
  if (!picked.length) picked.push(...scored.slice(0, 2));
  // the opening sentence of a policy states its rule (the return window, the warranty term)
  if (lead && scored.length && !picked.some((x) => x.i === 0)) {
    if (picked.length >= max) picked.pop();
    picked.push(scored[0]);
  }
  const chosen = picked.sort((a, b) => a.i - b.i);
  const out: string[] = [];
  let len = 0;
  for (const x of chosen) {
    if (len && len + x.s.length > maxChars) break;
    out.push(x.s);
    len += x.s.length;
  }
  // a heading line alone says little: take the sentence after it too
  if (out.length === 1 && out[0].length < 40 && sents[chosen[0].i + 1]) out.push(sents[chosen[0].i + 1]);
  return out;
}

const citationOf = (h: Hit): Citation => ({ source_type: h.source_type, source_id: h.source_id, title: h.title, score: round(h.score), chunk: h.text });
const round = (x: number) => Math.round(x * 1000) / 1000;

export interface BuiltinAnswer {
  text: string;
  citations: Citation[];
  /** true when the shop's knowledge had nothing that answers */
  nothingFound: boolean;
}

/** The built-in answer from ranked hits (exported for the demo seed, which ranks in bulk). */
export function composeBuiltin(question: string, hits: Hit[], terms: string[], expansion: Expansion = expandQuery(question)): BuiltinAnswer {
  const zh = isChinese(question);
  const relevant = hits.filter((h) => isRelevant(h, expansion.concepts));
  if (!relevant.length) return { text: `${zh ? NOTHING_FOUND.zh : NOTHING_FOUND.en}\n\n— ${BUILTIN_LABEL}`, citations: [], nothingFound: true };
  const top = relevant[0];
  // the sentences to quote are picked by the question's words and the lexicon's (a Chinese question, an English policy)
  const termSet = new Set([...terms, ...expansion.added.filter(([, w]) => w >= 0.5).map(([t]) => t)]);
  const used = [top];
  // a second source, nearly as good, that answers a part of the question the first does not
  const covered = termsOf(top, termSet);
  const second = relevant.find(
    (h) =>
      h !== top &&
      h.score >= top.score * 0.75 &&
      h.matched >= Math.ceil(terms.length / 2) &&
      (h.source_type !== top.source_type || h.source_id !== top.source_id) &&
      [...termsOf(h, termSet)].some((w) => !covered.has(w)),
  );
  if (second) used.push(second);
  const parts = used.map((h) => bestSentences(h.text, termSet, used.length > 1 ? 2 : 3, 420, h.chunk_index === 0).join(zh ? '' : ' '));
  const titles = used.map((h) => (zh ? `《${h.title}》` : `"${h.title}"`)).join(zh ? '、' : ', ');
  const body = parts.join('\n');
  const text = zh ? `根据本店的${titles}：\n${body}\n\n— ${BUILTIN_LABEL}` : `From our ${titles}:\n${body}\n\n— ${BUILTIN_LABEL}`;
  return { text, citations: used.map(citationOf), nothingFound: false };
}

async function builtin(db: Queryable, input: AnswerInput, started: number, note?: string): Promise<AnswerResult> {
  const res = await searchKnowledge(db, { query: input.question, shopId: input.shopId ?? null, channel: input.channel ?? null, limit: 5 });
  input.signal?.throwIfAborted();
  const a = composeBuiltin(input.question, res.hits, res.terms, res.expansion);
  return { text: a.text, responder: 'builtin', model: BUILTIN_MODEL, citations: a.citations, latencyMs: Date.now() - started, tokens: null, ...(note ? { note } : {}) };
}

// ─── with a model ───────────────────────────────────────────────────────────────────────────

type Gateway = typeof import('./gateway/index.js');
let gatewayLoad: Promise<Gateway | null> | null = null;
/** The gateway, loaded on first use; null when it cannot be loaded (the built-in responder answers). */
function loadGateway(): Promise<Gateway | null> {
  gatewayLoad ??= import('./gateway/index.js').catch(() => null);
  return gatewayLoad;
}

/** The knowledge as the prompt gets it: numbered, with its title. */
export function knowledgeBlock(hits: Hit[]): string {
  if (!hits.length) return '(no knowledge of this shop matches the question)';
  return hits.map((h, i) => `[${i + 1}] ${h.title}\n${h.text}`).join('\n\n');
}

export function fillPrompt(template: string, v: { shop: string; knowledge: string; question: string }): { system: string; askSeparately: boolean } {
  let t = template;
  const hasKnowledge = /\{\{\s*(knowledge|policies)\s*\}\}/.test(t);
  t = t.replace(/\{\{\s*shop\s*\}\}/g, v.shop).replace(/\{\{\s*(knowledge|policies)\s*\}\}/g, v.knowledge);
  const hasQuestion = /\{\{\s*question\s*\}\}/.test(t);
  t = t.replace(/\{\{\s*question\s*\}\}/g, v.question);
  if (!hasKnowledge) t = `${t}\n\nKnowledge:\n${v.knowledge}`;
  return { system: t, askSeparately: !hasQuestion };
}

async function withModel(db: Queryable, input: AnswerInput, serverId: number | null, template: string | null, started: number): Promise<AnswerResult> {
  const gw = await loadGateway();
  if (!gw) {
    const r = await builtin(db, input, started, 'the model gateway is not available; answered by the built-in responder / 模型网关不可用，由内置检索应答回答');
    return { ...r, modelFailed: 'the model gateway is not available / 模型网关不可用' };
  }
  const res = await searchKnowledge(db, { query: input.question, shopId: input.shopId ?? null, channel: input.channel ?? null, ...MODEL_CONTEXT });
  const shop = input.shopId ? (await db.query<{ name: string }>(`SELECT name FROM shop WHERE id = $1`, [input.shopId])).rows[0]?.name ?? '' : '';
  const relevant = res.hits.filter((h) => isRelevant(h, res.expansion.concepts) || h === res.hits[0]);
  const filled = fillPrompt(template ?? DEFAULT_PROMPT, { shop: shop || 'the shop', knowledge: knowledgeBlock(relevant), question: input.question });
  const messages = [{ role: 'system' as const, content: filled.system }, ...(filled.askSeparately ? [{ role: 'user' as const, content: input.question }] : [])];
  const r = await gw.chat({
    db,
    shopId: input.shopId ?? null,
    channel: input.channel ?? 'chat',
    sessionKey: input.sessionKey,
    messages,
    modelServerId: serverId,
    stream: Boolean(input.onDelta),
    onDelta: input.onDelta,
    signal: input.signal,
  });
  input.signal?.throwIfAborted();
  if (r.outcome === 'no_model') return builtin(db, input, started);
  const why = (r.error ?? '').slice(0, 500) || 'no reply / 无回复';
  if (r.outcome === 'failed') {
    const b = await builtin(db, input, started, `every model failed (${why.slice(0, 200)}); answered by the built-in responder / 模型调用失败，由内置检索应答回答`);
    return { ...b, modelFailed: why };
  }
  return {
    text: r.text,
    responder: 'model',
    model: r.outcome === 'fallback' ? 'fallback reply' : r.server?.model ?? '',
    citations: r.outcome === 'ok' ? relevant.map(citationOf) : [],
    latencyMs: Date.now() - started,
    tokens: { prompt: r.usage.prompt_tokens, completion: r.usage.completion_tokens },
    ...(r.outcome === 'fallback' ? { note: `every model failed; the configured fallback reply was sent / 模型均失败，已发送兜底回复`, modelFailed: why } : {}),
  };
}

// ─── entry point ────────────────────────────────────────────────────────────────────────────

export async function answerQuestion(db: Queryable, input: AnswerInput): Promise<AnswerResult> {
  const started = Date.now();
  input.signal?.throwIfAborted();
  let serverId = input.modelServerId ?? null;
  let template = input.prompt?.trim() ? input.prompt : null;
  if (input.assistantId) {
    const a = (await db.query<{ prompt: string; model_server_id?: number | null }>(`SELECT * FROM chat_assistant WHERE id = $1`, [input.assistantId])).rows[0];
    if (a) {
      template ??= a.prompt?.trim() ? a.prompt : null;
      serverId ??= a.model_server_id ?? null;
    }
  }
  if (serverId || input.useStrategy) return withModel(db, input, serverId, template, started);
  return builtin(db, input, started);
}
