/**
 * Retrieval test ("hit testing", as in Dify): a query → the ranked chunks of the knowledge index
 * with their source, BM25 score, vector similarity (hybrid ranking), the words matched and the
 * filters used; `ranking` says whether BM25 and vectors were fused ('hybrid') or BM25 ranked
 * alone ('bm25', with `ranking_note` saying why); and the decision the answer would follow
 * (server/ai/knowledge/decide.ts): each hit's relevance, whether it is used, the threshold and
 * top-k (the shop's, or the ones given to try) and whether the knowledge answers at all.
 *
 * The decision is made on the candidates the answer itself decides on (server/ai/answer.ts
 * `PER_SOURCE`): the first top-k with at most one chunk of a source for the built-in responder
 * (`responder: 'builtin'`, the default), two for a model's prompt (`responder: 'model'`). The list
 * shows more (up to three chunks of a source, `limit` rows) for inspection: a row among the
 * answer's candidates carries that list's rank (`answer_rank`), relevance, signals and verdict;
 * any other row is `beyond_top_k` (not among the answer's first top-k), its relevance and signals
 * judged on the listed rows for inspection only.
 *
 *   POST knowledge/hit-test { query, shop_id?, channel?, source_types?, policy_types?, limit?, ranking?, threshold?, top_k?, responder? }
 *   GET  knowledge/hit-test?query=&shop_id=&channel=&source_type=&policy_type=&threshold=&top_k=&responder=   (the
 *        schema page intelligent_text.knowledge_hit_test: one source type and one policy type, a `list`)
 *
 * The routes live in the learning domain, not beside the search in server/ai: they use the
 * resource engine and the domain's keys, and server/ai is an engine the domains call (it imports
 * no domain; eslint.config.js).
 */
import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { Nullable, StringEnum } from '../../http/typebox.js';
import { SOURCE_TYPES, type SourceType } from '../../ai/knowledge/index.js';
import { decidedBy, judge, TOP_K_MAX } from '../../ai/knowledge/decide.js';
import { SIGNALS, type SignalName } from '../../ai/knowledge/decide-model.js';
import { conceptsIn } from '../../ai/knowledge/lexicon.js';
import { retrievalSettings } from '../../ai/knowledge/settings.js';
import { searchKnowledge } from '../../ai/retrieval/search.js';
import { PER_SOURCE } from '../../ai/answer.js';
import { mustExist } from '../engine/refs.js';
import { Id } from '../engine/schemas.js';
import { CHANNELS, POLICY_SOURCE_TYPES, ids } from '../enums.js';
import { K } from '../keys.js';
import { HIT_TEST_KEY, settingsRoutes } from './knowledge-settings.js';

const ACCESS = { permission: [HIT_TEST_KEY, K.policy, K.storePolicy, K.doc] };

const QUERY = Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' });
const LIMIT = Type.Integer({ minimum: 1, maximum: 50, default: 10 });
const SOURCE = StringEnum(SOURCE_TYPES);
const PTYPE = Type.Integer({ enum: ids(POLICY_SOURCE_TYPES) });
const CHANNEL = StringEnum(CHANNELS);
const THRESHOLD = Type.Number({ minimum: 0, maximum: 1 });
const TOP_K = Type.Integer({ minimum: 1, maximum: TOP_K_MAX });
const RESPONDER = StringEnum(['builtin', 'model']);

const int = Type.Integer();
const num = Type.Number();
const str = Type.String();
const HitReply = Type.Object({
  rank: int,
  /** the row's rank among the candidates the answer decides on (null: not one of them) */
  answer_rank: Nullable(int),
  id: int,
  shop_id: Nullable(int),
  channel: Nullable(str),
  source_type: str,
  source_id: int,
  policy_type: Nullable(int),
  title: str,
  chunk_index: int,
  text: str,
  score: num,
  bm25: Nullable(num),
  similarity: Nullable(num),
  fused: Nullable(num),
  matched: int,
  matched_terms: str,
  coverage: num,
  /** the decision model's confidence that the chunk answers the question (server/ai/knowledge/decide-model.ts) */
  relevance: num,
  /** what the model weighs: shares of the question's weighted concepts (decide-model.ts SIGNALS) */
  ...(Object.fromEntries(SIGNALS.map((k) => [k, num])) as Record<SignalName, typeof num>),
  /** 1: the answer uses this chunk (within the top-k, relevance ≥ threshold or a close vector); 0: not */
  used: Type.Unsafe<0 | 1>({ type: 'integer', enum: [0, 1] }),
  verdict: StringEnum(['used', 'below_threshold', 'beyond_top_k']),
  threshold: num,
});
/** the reply; a GET without a query answers an empty list with no filters, ranking or decision */
const HitTestReply = Type.Object({
  query: str,
  terms: Type.Array(str),
  expanded_terms: Type.Optional(Type.Array(str)),
  filters: Type.Object({
    shop_id: Type.Optional(Nullable(int)),
    channel: Type.Optional(Nullable(str)),
    source_types: Type.Optional(Nullable(Type.Array(str))),
    policy_types: Type.Optional(Nullable(Type.Array(int))),
    limit: Type.Optional(int),
  }),
  scope: int,
  ranking: Type.Optional(StringEnum(['bm25', 'hybrid'])),
  ranking_note: Type.Optional(str),
  embedded: Type.Optional(Nullable(int)),
  embeddings: Type.Optional(Nullable(Type.Object({ server_id: int, server: str, model: str }))),
  took_ms: num,
  /** the decision: threshold, top-k, their source, whether the knowledge answers, and the deciding hit's rank, confidence and signals (decide.ts `decidedBy`) */
  decision: Type.Optional(
    Type.Object({
      threshold: num,
      top_k: int,
      source: StringEnum(['default', 'shop', 'assistant', 'request']),
      /** the answer path predicted, and so how many chunks of one source it decides on (answer.ts PER_SOURCE) */
      responder: RESPONDER,
      per_source: int,
      answered: Type.Boolean(),
      rank: Nullable(int),
      confidence: num,
      signals: Type.Object(Object.fromEntries(SIGNALS.map((k) => [k, num])) as Record<SignalName, typeof num>),
    }),
  ),
  total: int,
  list: Type.Array(HitReply),
});

interface HitTestInput {
  query: string;
  shop_id?: number | null;
  channel?: string | null;
  source_types?: SourceType[] | null;
  policy_types?: number[] | null;
  limit?: number;
  ranking?: 'auto' | 'bm25';
  threshold?: number | null;
  top_k?: number | null;
  responder?: 'builtin' | 'model';
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

async function hitTest(ctx: RouteContext<unknown, unknown>, b: HitTestInput): Promise<Static<typeof HitTestReply>> {
  await mustExist(ctx.db, 'shop', b.shop_id ?? undefined, 'shop_id');
  const settings = await retrievalSettings(ctx.db, { shopId: b.shop_id ?? null, override: { threshold: b.threshold, topK: b.top_k } });
  const limit = b.limit ?? Math.max(10, settings.topK);
  const filters = {
    shop_id: b.shop_id ?? null,
    channel: b.channel ?? null,
    source_types: b.source_types?.length ? b.source_types : null,
    policy_types: b.policy_types?.length ? b.policy_types : null,
    limit,
  };
  const responder = b.responder ?? 'builtin';
  const search = { query: b.query, shopId: filters.shop_id, channel: filters.channel, sourceTypes: filters.source_types, policyTypes: filters.policy_types, ranking: b.ranking ?? 'auto', log: ctx.req.log };
  // the list to inspect: more rows, up to three chunks of a source
  const r = await searchKnowledge(ctx.db, { ...search, limit, perSource: 3 });
  // the decision as the answer makes it (server/ai/answer.ts): its own candidates, the first top-k, relevance against the threshold (the question embedded once)
  const ans = await searchKnowledge(ctx.db, { ...search, limit: settings.topK, perSource: PER_SOURCE[responder], sync: false, queryVector: r.queryVector });
  const d = judge(ans.hits, ans.expansion, settings);
  const answerRank = new Map(ans.hits.map((h, i) => [h.id, i]));
  const concepts = r.expansion.concepts;
  const conceptsOf = (h: { title: string; text: string }) => {
    const n = conceptsIn(concepts, `${h.title}\n${h.text}`).filter(Boolean).length;
    return { coverage: r3(concepts.length ? n / concepts.length : 0), matched_terms: `${n} / ${concepts.length}` };
  };
  // rows the answer does not decide on: judged among the listed rows, for inspection, and beyond its top-k
  const shown = judge(r.hits, r.expansion, settings);
  const judgedOf = (id: number, i: number) => {
    const j = answerRank.get(id);
    return j === undefined ? { answer_rank: null, ...shown.judged[i], verdict: 'beyond_top_k' as const } : { answer_rank: j + 1, ...d.judged[j] };
  };
  const list = r.hits.map((h, i) => {
    const j = judgedOf(h.id, i);
    return {
      rank: i + 1,
      answer_rank: j.answer_rank,
      ...h,
      relevance: r3(j.relevance),
      ...(Object.fromEntries(SIGNALS.map((k) => [k, r3(j.signals[k])])) as Record<SignalName, number>),
      used: j.verdict === 'used' ? (1 as const) : (0 as const),
      verdict: j.verdict,
      threshold: settings.threshold,
      score: r3(h.score),
      bm25: h.bm25 === null ? null : r3(h.bm25),
      similarity: h.similarity === null ? null : r3(h.similarity),
      fused: h.fused === null ? null : r6(h.fused),
      // the question's concepts the chunk has (lexicon.ts), which decide whether the built-in responder answers from it
      ...conceptsOf(h),
    };
  });
  const embeddings = r.embeddings && { server_id: r.embeddings.serverId, server: r.embeddings.server, model: r.embeddings.model };
  return {
    query: b.query,
    terms: r.terms,
    expanded_terms: r.expansion.added.filter(([, w]) => w >= 0.5).map(([t]) => t),
    filters,
    scope: r.scope,
    ranking: r.ranking,
    ranking_note: r.rankingNote,
    embedded: r.embedded,
    embeddings,
    took_ms: Math.round(r.tookMs * 10) / 10,
    decision: { threshold: settings.threshold, top_k: settings.topK, source: settings.source, responder, per_source: PER_SOURCE[responder], answered: d.answered, ...decidedBy(d) },
    total: list.length,
    list,
  };
}

const postRoute = route({
  method: 'POST',
  path: 'knowledge/hit-test',
  access: ACCESS,
  summary: 'Retrieval test: the ranked knowledge chunks for a query (BM25, or BM25 fused with vectors when an embeddings server is configured), with source, scores and the filters used',
  // the question's embeddings call must not hold a transaction (PGlite has one connection)
  transaction: false,
  body: Type.Object(
    {
      query: QUERY,
      shop_id: Type.Optional(Nullable(Id)),
      channel: Type.Optional(Nullable(CHANNEL)),
      source_types: Type.Optional(Type.Array(SOURCE, { maxItems: SOURCE_TYPES.length, uniqueItems: true })),
      policy_types: Type.Optional(Type.Array(PTYPE, { maxItems: 11, uniqueItems: true })),
      limit: Type.Optional(LIMIT),
      ranking: Type.Optional(StringEnum(['auto', 'bm25'], { default: 'auto' })),
      threshold: Type.Optional(Nullable(THRESHOLD)),
      top_k: Type.Optional(Nullable(TOP_K)),
      responder: Type.Optional(RESPONDER),
    },
    { additionalProperties: false },
  ),
  reply: HitTestReply,
  handler: (ctx) => hitTest(ctx, ctx.body),
});

const getRoute = route({
  method: 'GET',
  path: 'knowledge/hit-test',
  access: ACCESS,
  summary: 'Retrieval test for the schema page (one source type / policy type); no query: an empty list',
  query: Type.Object(
    {
      query: Type.Optional(Type.String({ maxLength: 1000 })),
      shop_id: Type.Optional(Id),
      channel: Type.Optional(CHANNEL),
      source_type: Type.Optional(SOURCE),
      policy_type: Type.Optional(PTYPE),
      limit: Type.Optional(LIMIT),
      threshold: Type.Optional(THRESHOLD),
      top_k: Type.Optional(TOP_K),
      responder: Type.Optional(RESPONDER),
    },
    { additionalProperties: false },
  ),
  reply: HitTestReply,
  handler: async (ctx) => {
    const q = ctx.query;
    if (!q.query?.trim()) return { query: '', terms: [], filters: {}, scope: 0, took_ms: 0, total: 0, list: [] };
    return hitTest(ctx, {
      query: q.query,
      shop_id: q.shop_id ?? null,
      channel: q.channel ?? null,
      source_types: q.source_type ? [q.source_type] : null,
      policy_types: q.policy_type ? [q.policy_type] : null,
      limit: q.limit,
      threshold: q.threshold,
      top_k: q.top_k,
      responder: q.responder,
    });
  },
});

/** the retrieval test and the knowledge base's settings (server/resources/index.ts joins them) */
export const hitTestRoutes: RouteDef[] = [postRoute, getRoute, ...settingsRoutes];
