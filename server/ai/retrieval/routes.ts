/**
 * Retrieval test ("hit testing", as in Dify): a query → the ranked chunks of the knowledge index
 * with their source, BM25 score, vector similarity (hybrid ranking), the words matched and the
 * filters used; `ranking` says whether BM25 and vectors were fused ('hybrid') or BM25 ranked
 * alone ('bm25', with `ranking_note` saying why); and the decision the answer would follow
 * (server/ai/knowledge/decide.ts): each hit's relevance, whether it is used, the threshold and
 * top-k (the shop's, or the ones given to try) and whether the knowledge answers at all.
 *
 *   POST knowledge/hit-test { query, shop_id?, channel?, source_types?, policy_types?, limit?, ranking?, threshold?, top_k? }
 *   GET  knowledge/hit-test?query=&shop_id=&channel=&source_type=&policy_type=&threshold=&top_k=   (the
 *        schema page intelligent_text.knowledge_hit_test: one source type and one policy type, a `list`)
 */
import { Type } from '@sinclair/typebox';
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { Nullable, StringEnum } from '../../http/typebox.js';
import { mustExist } from '../../resources/engine/refs.js';
import { Id } from '../../resources/engine/schemas.js';
import { CHANNELS, POLICY_SOURCE_TYPES, ids } from '../../resources/enums.js';
import { K } from '../../resources/keys.js';
import { SOURCE_TYPES, type SourceType } from '../knowledge/index.js';
import { judge, TOP_K_MAX } from '../knowledge/decide.js';
import { SIGNALS } from '../knowledge/decide-model.js';
import { conceptsIn } from '../knowledge/lexicon.js';
import { retrievalSettings } from '../knowledge/settings.js';
import { searchKnowledge } from './search.js';
import { HIT_TEST_KEY, settingsRoutes } from './settings-routes.js';

export { HIT_TEST_KEY };
const ACCESS = { permission: [HIT_TEST_KEY, K.policy, K.storePolicy, K.doc] };

const QUERY = Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' });
const LIMIT = Type.Integer({ minimum: 1, maximum: 50, default: 10 });
const SOURCE = StringEnum(SOURCE_TYPES);
const PTYPE = Type.Integer({ enum: ids(POLICY_SOURCE_TYPES) });
const CHANNEL = StringEnum(CHANNELS);
const THRESHOLD = Type.Number({ minimum: 0, maximum: 1 });
const TOP_K = Type.Integer({ minimum: 1, maximum: TOP_K_MAX });

const hitSchema = {
  type: 'object',
  properties: {
    rank: { type: 'integer' },
    id: { type: 'integer' },
    shop_id: { type: ['integer', 'null'] },
    channel: { type: ['string', 'null'] },
    source_type: { type: 'string' },
    source_id: { type: 'integer' },
    policy_type: { type: ['integer', 'null'] },
    title: { type: 'string' },
    chunk_index: { type: 'integer' },
    text: { type: 'string' },
    score: { type: 'number' },
    bm25: { type: ['number', 'null'] },
    similarity: { type: ['number', 'null'] },
    fused: { type: ['number', 'null'] },
    matched: { type: 'integer' },
    matched_terms: { type: 'string' },
    coverage: { type: 'number' },
    /** the decision model's confidence that the chunk answers the question (server/ai/knowledge/decide-model.ts) */
    relevance: { type: 'number' },
    /** what the model weighs: shares of the question's weighted concepts (decide-model.ts SIGNALS) */
    ...Object.fromEntries(SIGNALS.map((k) => [k, { type: 'number' }])),
    /** 1: the answer uses this chunk (within the top-k, relevance ≥ threshold or a close vector); 0: not */
    used: { type: 'integer', enum: [0, 1] },
    verdict: { type: 'string', enum: ['used', 'below_threshold', 'beyond_top_k'] },
    threshold: { type: 'number' },
  },
};
const replySchema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    terms: { type: 'array', items: { type: 'string' } },
    expanded_terms: { type: 'array', items: { type: 'string' } },
    filters: {
      type: 'object',
      properties: {
        shop_id: { type: ['integer', 'null'] },
        channel: { type: ['string', 'null'] },
        source_types: { type: ['array', 'null'], items: { type: 'string' } },
        policy_types: { type: ['array', 'null'], items: { type: 'integer' } },
        limit: { type: 'integer' },
      },
    },
    scope: { type: 'integer' },
    ranking: { type: 'string', enum: ['bm25', 'hybrid'] },
    ranking_note: { type: 'string' },
    embedded: { type: ['integer', 'null'] },
    embeddings: {
      type: ['object', 'null'],
      properties: { server_id: { type: 'integer' }, server: { type: 'string' }, model: { type: 'string' } },
    },
    took_ms: { type: 'number' },
    decision: {
      type: 'object',
      properties: {
        threshold: { type: 'number' },
        top_k: { type: 'integer' },
        source: { type: 'string', enum: ['default', 'shop', 'assistant', 'request'] },
        answered: { type: 'boolean' },
      },
    },
    total: { type: 'integer' },
    list: { type: 'array', items: hitSchema },
  },
};

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
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

async function hitTest(ctx: RouteContext<unknown, unknown>, b: HitTestInput) {
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
  const r = await searchKnowledge(ctx.db, {
    query: b.query,
    shopId: filters.shop_id,
    channel: filters.channel,
    sourceTypes: filters.source_types,
    policyTypes: filters.policy_types,
    limit,
    perSource: 3,
    ranking: b.ranking ?? 'auto',
    log: ctx.req.log,
  });
  const concepts = r.expansion.concepts;
  const conceptsOf = (h: { title: string; text: string }) => {
    const n = conceptsIn(concepts, `${h.title}\n${h.text}`).filter(Boolean).length;
    return { coverage: r3(concepts.length ? n / concepts.length : 0), matched_terms: `${n} / ${concepts.length}` };
  };
  // the decision as the answer makes it (server/ai/answer.ts): the first top-k, relevance against the threshold
  const d = judge(r.hits, r.expansion, settings);
  const list = r.hits.map((h, i) => ({
    rank: i + 1,
    ...h,
    relevance: r3(d.judged[i].relevance),
    ...Object.fromEntries(SIGNALS.map((k) => [k, r3(d.judged[i].signals[k])])),
    used: d.judged[i].verdict === 'used' ? 1 : 0,
    verdict: d.judged[i].verdict,
    threshold: settings.threshold,
    score: r3(h.score),
    bm25: h.bm25 === null ? null : r3(h.bm25),
    similarity: h.similarity === null ? null : r3(h.similarity),
    fused: h.fused === null ? null : r6(h.fused),
    // the question's concepts the chunk has (lexicon.ts), which decide whether the built-in responder answers from it
    ...conceptsOf(h),
  }));
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
    decision: { threshold: settings.threshold, top_k: settings.topK, source: settings.source, answered: d.answered },
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
    },
    { additionalProperties: false },
  ),
  reply: replySchema,
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
    },
    { additionalProperties: false },
  ),
  reply: replySchema,
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
    });
  },
});

export const routes: RouteDef[] = [postRoute, getRoute, ...settingsRoutes];
