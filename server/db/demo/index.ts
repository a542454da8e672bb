import type { Db } from '../db.js';
import { syncAllKnowledge } from '../../ai/knowledge/index.js';
import { seedNotifications, seedLearning, seedPlans, seedPolicies } from './business.js';
import { seedLarge } from './large.js';
import { Rng } from './random.js';
import { seedMerchants, seedOrders, seedProducts } from './shops.js';

export interface SeedDemoOptions {
  /** `demo` (default): a few hundred shops, a few thousand orders. `large`: ≥100k shops, 1M orders. */
  scale?: 'demo' | 'large';
}

/**
 * Deterministic demo data for every business table (seeded PRNG, fixed reference time).
 * Idempotent: does nothing when shops already exist (it runs at every start with SEED_DEMO on).
 * `large` adds the benchmark volume on top, also idempotently.
 */
export async function seedDemo(db: Db, opts: SeedDemoOptions = {}): Promise<void> {
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM shop LIMIT 1) x`);
  if (r.rows[0].n === 0) {
    const rng = new Rng(20261122);
    await db.tx(async (q) => {
      const { shops } = await seedMerchants(q, rng, 150, [1, 3]);
      await seedOrders(q, rng, shops, 4000);
      await seedProducts(q, rng, shops);
      await seedPolicies(q, rng, shops);
      await seedLearning(q, rng, shops, 600);
      await seedNotifications(q, rng);
      await seedPlans(q, rng, shops, 220);
    });
  }
  // The knowledge index of the policies, product knowledge and documents above fills lazily: a
  // search indexes its shop's pending knowledge first (the demo chats and lab results do), the
  // knowledge.sync tick the rest within seconds of the start. Indexing all of it here would
  // add ~3 s to the first start.
  await (await import('./voice.js')).seedVoiceDemo(db);
  await (await import('./sessions.js')).seedSessions(db);
  await (await import('./lab.js')).seedLab(db);
  await (await import('./page-groups.js')).seedPageGroupsDemo(db);
  // one Shopify shop connected to the built-in sandbox (issue 24, docs/integrations.md)
  await (await import('../../shops/demo.js')).seedShopSandbox(db);
  if (opts.scale === 'large') {
    await seedLarge(db);
    // 200k policies: indexed now rather than by the tick while a bench runs
    await syncAllKnowledge(db, 5000);
  }
}
