/**
 * A knowledge base's retrieval settings (server/ai/knowledge/settings.ts): a shop's score
 * threshold and top-k, read and saved from the retrieval test page.
 *
 *   GET  knowledge/settings?shop_id=            → { shop_id, threshold, top_k, source, defaults }
 *   POST knowledge/settings { shop_id, threshold, top_k }   (a null one: its default; both null: back to the defaults)
 */
import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { Nullable, StringEnum } from '../../http/typebox.js';
import { DEFAULT_RETRIEVAL, TOP_K_MAX } from '../../ai/knowledge/decide.js';
import { retrievalSettings, saveShopSettings, shopSettings } from '../../ai/knowledge/settings.js';
import { mustExist } from '../engine/refs.js';
import { Id } from '../engine/schemas.js';
import { K } from '../keys.js';

export const HIT_TEST_KEY = 'intelligent_text.text.learn.policy_management.hit_test';

const reply = Type.Object({
  shop_id: Type.Integer(),
  threshold: Type.Number(),
  top_k: Type.Integer(),
  /** a shop's settings read here are its own or the defaults (no assistant, no request values) */
  source: StringEnum(['default', 'shop']),
  defaults: Type.Object({ threshold: Type.Number(), top_k: Type.Integer() }),
});

async function read(db: Parameters<typeof retrievalSettings>[0], shopId: number): Promise<Static<typeof reply>> {
  const s = await retrievalSettings(db, { shopId });
  // with a shop alone the values are the shop's or the defaults
  const source = s.source === 'shop' ? 'shop' : 'default';
  return { shop_id: shopId, threshold: s.threshold, top_k: s.topK, source, defaults: { threshold: DEFAULT_RETRIEVAL.threshold, top_k: DEFAULT_RETRIEVAL.topK } };
}

const getRoute = route({
  method: 'GET',
  path: 'knowledge/settings',
  access: { permission: [HIT_TEST_KEY, K.policy, K.storePolicy, K.doc] },
  summary: "A shop's retrieval settings: the score threshold and top-k the answer's decision uses (its own, or the defaults)",
  query: Type.Object({ shop_id: Id }, { additionalProperties: false }),
  reply,
  handler: async (ctx) => {
    await mustExist(ctx.db, 'shop', ctx.query.shop_id, 'shop_id');
    return read(ctx.db, ctx.query.shop_id);
  },
});

const saveRoute = route({
  method: 'POST',
  path: 'knowledge/settings',
  access: { permission: [HIT_TEST_KEY, K.policy, K.storePolicy] },
  summary: "Saves a shop's score threshold and top-k (a null one takes its default; both null: the defaults again)",
  body: Type.Object(
    {
      shop_id: Id,
      threshold: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
      top_k: Nullable(Type.Integer({ minimum: 1, maximum: TOP_K_MAX })),
    },
    { additionalProperties: false },
  ),
  reply,
  handler: async (ctx) => {
    const b = ctx.body;
    await mustExist(ctx.db, 'shop', b.shop_id, 'shop_id');
    const before = await shopSettings(ctx.db, b.shop_id);
    // one left empty takes its default; both empty: the row goes (the defaults, and later changes to them, apply)
    const v = b.threshold === null && b.top_k === null ? null : { threshold: b.threshold ?? DEFAULT_RETRIEVAL.threshold, topK: b.top_k ?? DEFAULT_RETRIEVAL.topK };
    await saveShopSettings(ctx.db, b.shop_id, v, ctx.user?.id ?? null);
    await ctx.audit({ action: 'update', resource: 'knowledge_setting', targetId: b.shop_id, before, after: v });
    return read(ctx.db, b.shop_id);
  },
});

export const settingsRoutes: RouteDef[] = [getRoute, saveRoute];
