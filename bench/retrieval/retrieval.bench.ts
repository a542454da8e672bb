/**
 * Retrieval over the knowledge index (server/ai/retrieval): the labelled questions of
 * questions.ts (English and Chinese, each with the demo policy that answers it) are asked of
 * their shop, as the built-in responder asks; recall@5 (the policy among the first five sources),
 * MRR and the latency of one search (p50, p99).
 *
 *   - PGlite: the demo knowledge (the demo seed's shops, policies, product knowledge, documents);
 *     full runs also grow it to 100,000 chunks (document chunks copied onto synthetic shops);
 *   - PostgreSQL (with TEST_DATABASE_URL or DATABASE_URL; full runs): the same, plus synthetic
 *     shops with knowledge from the same generator up to 10,000 policies, and document chunks
 *     copied from them onto those shops up to 100,000 chunks (the labelled shops' own knowledge is
 *     unchanged; their searches run against the big index).
 *
 * And the slices of slices.ts (issue 21): same language, cross-language, hard paraphrases with
 * typos, document rows, questions nothing answers — recall@5 per slice, the decision's declines
 * and false declines.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { syncAllKnowledge, syncKnowledge } from '../../server/ai/knowledge/index.js';
import { searchKnowledge } from '../../server/ai/retrieval/search.js';
import { seedLearning, seedPolicies } from '../../server/db/demo/business.js';
import { policiesOf, profileOf, type DemoShop, type Topic } from '../../server/db/demo/knowledge.js';
import { insertMany } from '../../server/db/demo/insert.js';
import { Rng } from '../../server/db/demo/random.js';
import { seedMerchants, seedProducts, type ShopInfo } from '../../server/db/demo/shops.js';
import { COUNTRIES } from '../../server/db/demo/words.js';
import { migrate } from '../../server/db/migrate.js';
import { openPg } from '../../server/db/pg.js';
import { openPglite } from '../../server/db/pglite.js';
import type { SqlDb } from '../../server/db/sql-db.js';
import type { Figure, Suite, SuiteContext } from '../lib/result.js';
import { quantile, round } from '../lib/stats.js';
import { buildQuestions, type Labelled, type LabelledShop } from './questions.js';
import { bestOfLatency, type BestOf } from './latency.js';
import { buildAsks, docShops, runSlices, type SlicesResult } from './slices.js';

interface Target {
  driver: 'pglite' | 'postgres';
  db: SqlDb;
  cleanup(): Promise<void>;
}

async function pgliteTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-retrieval-'));
  const db = await openPglite(dir);
  return { driver: 'pglite', db, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function postgresTarget(url: string): Promise<Target> {
  const schema = `br_${randomBytes(5).toString('hex')}`;
  const admin = await openPg(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = await openPg(url, { schema });
  return {
    driver: 'postgres',
    db,
    async cleanup() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

export interface Scale {
  policies: number;
  chunks: number;
}

/** The demo knowledge (same generator and seed as the demo data), optionally grown to `scale`. */
export async function seedKnowledge(
  db: SqlDb,
  scale: Scale | null,
  log: (m: string) => void,
  only?: (shops: ShopInfo[]) => number[],
  beforeIndex?: () => Promise<void>,
): Promise<ShopInfo[]> {
  await migrate(db);
  const rng = new Rng(20261122);
  const shops = await db.tx(async (q) => {
    const { shops } = await seedMerchants(q, rng, 150, [1, 3]);
    await seedProducts(q, rng, shops);
    await seedPolicies(q, rng, shops);
    await seedLearning(q, rng, shops, 50);
    return shops;
  });
  if (scale) {
    const have = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM policy`)).rows[0].n;
    const perShop = 12.4;
    // at least some synthetic shops when only chunks are asked for (they hold the copied chunks)
    const extra = Math.max(scale.chunks > 0 ? 200 : 0, Math.ceil((scale.policies - have) / perShop));
    const ids = await insertMany(db, 'shop', ['name', 'type', 'country_code'], Array.from({ length: extra }, (_, i) => [`bench shop ${i}`, i % 4 === 0 ? 2 : 1, i % 4 === 0 ? 'CN' : COUNTRIES[i % COUNTRIES.length]]));
    const rows: unknown[][] = [];
    ids.forEach((id, i) => {
      const fake: DemoShop = { id, type: i % 4 === 0 ? 2 : 1, country: i % 4 === 0 ? 'CN' : COUNTRIES[i % COUNTRIES.length], slug: `bench-shop-${i}` };
      for (const [k, p] of policiesOf(profileOf(fake)).entries()) rows.push([id, p.title, p.content, (k % 11) + 1, p.channel, 1]);
    });
    await insertMany(db, 'policy', ['shop_id', 'title', 'content', 'source_type', 'channel', 'status'], rows);
    log(`${have + rows.length} policies`);
  }
  await beforeIndex?.();
  const t0 = performance.now();
  if (only) for (const id of only(shops)) await syncKnowledge(db, { shopId: id, limit: 5000 });
  else await syncAllKnowledge(db, 5000);
  log(`indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (scale) {
    const cnt = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_chunk`)).rows[0].n;
    const filler = scale.chunks - cnt;
    if (filler > 0) {
      // copies of indexed chunks as document chunks of the synthetic shops (tsvector copied too)
      await db.query(
        `WITH src AS (SELECT row_number() OVER (ORDER BY id) - 1 AS k, title, text, segmented, tokens, tsv FROM knowledge_chunk),
              fs AS (SELECT row_number() OVER (ORDER BY id) - 1 AS k, id FROM shop WHERE name LIKE 'bench shop %'),
              n AS (SELECT (SELECT count(*) FROM src) AS s, (SELECT count(*) FROM fs) AS f)
         INSERT INTO knowledge_chunk (shop_id, channel, source_type, source_id, policy_type, title, chunk_index, text, segmented, tokens, tsv)
         SELECT fs.id, NULL, 'learn_doc', 1000000 + g / 10, NULL, src.title, g % 10, src.text, src.segmented, src.tokens, src.tsv
           FROM n, generate_series(0, $1::int - 1) g
           JOIN src ON src.k = (g * 7919) % (SELECT s FROM n)
           JOIN fs ON fs.k = g % (SELECT f FROM n)`,
        [filler],
      );
    }
    await db.query(`ANALYZE knowledge_chunk`);
  }
  return shops;
}

/** The labelled shops: 12 English and 12 Chinese shops with knowledge, spread over the demo. */
function labelledOf(shops: ShopInfo[]): ShopInfo[] {
  const withKnowledge = shops.slice(0, Math.ceil(shops.length * 0.6));
  const pick = (zh: boolean) => withKnowledge.filter((s) => (s.type === 2) === zh).filter((_, i, a) => i % Math.max(1, Math.floor(a.length / 12)) === 0).slice(0, 12);
  return [...pick(false), ...pick(true)];
}

async function labelledShops(db: SqlDb, shops: ShopInfo[]): Promise<LabelledShop[]> {
  const out: LabelledShop[] = [];
  for (const s of labelledOf(shops)) {
    const profile = profileOf(s);
    const byTitle = new Map(policiesOf(profile).map((p) => [p.title, p.topic] as [string, Topic]));
    const rows = await db.query<{ id: number; title: string }>(`SELECT id, title FROM policy WHERE shop_id = $1 AND status = 1`, [s.id]);
    const policies = new Map<Topic, number>();
    for (const r of rows.rows) if (byTitle.has(r.title)) policies.set(byTitle.get(r.title)!, r.id);
    out.push({ id: s.id, profile, policies });
  }
  return out;
}

export interface RetrievalResult {
  n: number;
  recall5: number;
  mrr: number;
  p50: number | null;
  p99: number | null;
  /** process CPU time of one search (PGlite runs in the process: the database's work is in it; not on a quiet machine, still the code's own cost) */
  cpuP50: number | null;
  byLang: Record<string, { n: number; recall5: number; mrr: number }>;
  misses: Array<{ question: string; topic: string; got: string[] }>;
  chunks: number;
  policies: number;
  slices: SlicesResult;
  /** the same slices without the bilingual dictionary (the lexicon alone) */
  plain: SlicesResult;
  /** full runs: each question's fastest of five searches, and the slowest one's statements and plan (latency.ts) */
  best: BestOf | null;
}

/** Asks every labelled question of its shop; the rank of the labelled policy among the sources. */
export async function runQuestions(db: SqlDb, qs: Labelled[]): Promise<Omit<RetrievalResult, 'chunks' | 'policies' | 'slices' | 'plain' | 'best'>> {
  for (const q of qs.slice(0, 20)) await searchKnowledge(db, { query: q.question, shopId: q.shopId, limit: 5, sync: false }); // warm-up
  const ms: number[] = [];
  const cpu: number[] = [];
  const ranks: number[] = [];
  const misses: RetrievalResult['misses'] = [];
  for (const q of qs) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await searchKnowledge(db, { query: q.question, shopId: q.shopId, limit: 5, perSource: 1, sync: false });
    ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    const rank = r.hits.findIndex((h) => h.source_type === 'policy' && h.source_id === q.policyId) + 1;
    ranks.push(rank);
    if (rank === 0 && misses.length < 40) misses.push({ question: q.question, topic: q.topic, got: r.hits.map((h) => h.title) });
  }
  const stats = (idx: number[]) => ({
    n: idx.length,
    recall5: idx.filter((i) => ranks[i] > 0).length / Math.max(idx.length, 1),
    mrr: idx.reduce((a, i) => a + (ranks[i] ? 1 / ranks[i] : 0), 0) / Math.max(idx.length, 1),
  });
  const all = stats(qs.map((_, i) => i));
  const byLang = Object.fromEntries(['en', 'zh'].map((l) => [l, stats(qs.map((q, i) => (q.lang === l ? i : -1)).filter((i) => i >= 0))]));
  return { ...all, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), cpuP50: quantile(cpu, 0.5), byLang, misses };
}

async function measure(t: Target, scale: Scale | null, ctx: SuiteContext): Promise<RetrievalResult> {
  // the smoke indexes the labelled shops only (the searches are per shop; the rest is latency)
  let docs: number[] = [];
  const only = ctx.smoke ? (s: ShopInfo[]) => [...labelledOf(s).map((x) => x.id), ...docs] : undefined;
  const shops = await seedKnowledge(t.db, scale, (m) => ctx.log(`retrieval (${t.driver}): ${m}`), only && ((s) => only(s)), async () => {
    docs = await docShops(t.db);
  });
  const labelled = await labelledShops(t.db, shops);
  const qs = buildQuestions(labelled, 3);
  const r = await runQuestions(t.db, qs);
  const best = scale ? await bestOfLatency(t.db, qs) : null;
  const asks = await buildAsks(t.db, labelled, 3);
  const slices = await runSlices(t.db, asks);
  const plain = await runSlices(t.db, asks, { dictionary: false });
  const brief = (x: SlicesResult) => `unanswerable declined ${round(x.slices.unanswerable.declined, 3)}, false declines ${round(x.falseDeclines, 3)}, cross recall@5 ${round(x.slices.cross.recall5 ?? 0, 3)}`;
  ctx.log(`retrieval (${t.driver}): with the dictionary ${brief(slices)}; without ${brief(plain)}`);
  const count = async (table: string) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  return { ...r, slices, plain, best, chunks: await count('knowledge_chunk'), policies: await count('policy') };
}

export const retrievalSuite: Suite = {
  id: 'retrieval',
  title: 'knowledge retrieval (labelled zh + en questions)',
  async run(ctx) {
    const figures: Figure[] = [];
    const url = (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL)?.trim();
    const runs: Array<[() => Promise<Target>, Scale | null]> = [[pgliteTarget, ctx.smoke ? null : { policies: 0, chunks: 100_000 }]];
    if (url && !ctx.smoke) runs.push([() => postgresTarget(url), { policies: 10_000, chunks: 100_000 }]);
    for (const [make, scale] of runs) {
      const t = await make();
      try {
        ctx.log(`retrieval on ${t.driver}${scale ? ` (${scale.policies ? '10k policies, ' : ''}100k chunks)` : ' (demo knowledge)'}…`);
        const r = await measure(t, scale, ctx);
        const size = `${r.policies} policies, ${r.chunks} chunks`;
        const big = r.chunks >= 100_000;
        const detail = { questions: r.n, byLang: r.byLang, misses: r.misses, policies: r.policies, chunks: r.chunks };
        ctx.facts[`retrieval.${t.driver}`] = { questions: r.n, policies: r.policies, chunks: r.chunks };
        figures.push(
          { id: `retrieval.${t.driver}.recall5`, label: `recall@5, ${r.n} labelled questions (${t.driver}, ${size})`, unit: 'x', value: round(r.recall5, 3), goal: { op: '>=', value: 0.9, on: 'value' }, detail },
          { id: `retrieval.${t.driver}.mrr`, label: `MRR (${t.driver})`, unit: 'x', value: round(r.mrr, 3), goal: { op: '>=', value: 0.75, on: 'value' } },
          { id: `retrieval.${t.driver}.p50`, label: `search latency p50 (${t.driver}, ${size})`, unit: 'ms', value: round(r.p50, 2), goal: { op: '<=', value: 20, on: 'value', when: 'at 100k chunks', applies: big } },
          { id: `retrieval.${t.driver}.p99`, label: `search latency p99 (${t.driver})`, unit: 'ms', value: round(r.p99, 2) },
          // the process's CPU time per search: on PGlite the database's work too (it runs in the process), so a figure a loaded machine inflates less than wall time
          ...(t.driver === 'pglite'
            ? [{ id: 'retrieval.pglite.cpu-p50', label: `search CPU time p50 (pglite in the process, ${size})`, unit: 'ms' as const, value: round(r.cpuP50, 2), goal: { op: '<=' as const, value: 20, on: 'value' as const, when: 'at 100k chunks', applies: big } }]
            : []),
          ...(r.best
            ? [
                { id: `retrieval.${t.driver}.best-p50`, label: `search latency p50, each question's fastest of ${r.best.runs} (${t.driver}, ${size})`, unit: 'ms' as const, value: round(r.best.p50, 2), goal: { op: '<=' as const, value: 20, on: 'value' as const, when: 'at 100k chunks', applies: big }, detail: { questions: r.best.questions, statements: r.best.statements, plan: r.best.plan } },
                { id: `retrieval.${t.driver}.best-p99`, label: `search latency p99, each question's fastest of ${r.best.runs} (${t.driver})`, unit: 'ms' as const, value: round(r.best.p99, 2) },
              ]
            : []),
          ...sliceFigures(t.driver, r.slices, r.plain),
        );
      } finally {
        await t.db.close();
        await t.cleanup();
      }
    }
    if (!url || ctx.smoke) {
      figures.push({
        id: 'retrieval.postgres.recall5',
        label: 'recall@5 (postgres, 10k policies, 100k chunks)',
        unit: 'x',
        value: null,
        skip: true,
        note: ctx.smoke ? 'full runs only' : 'set DATABASE_URL to measure on PostgreSQL',
      });
    }
    return figures;
  },
};

/** Recall@5 per slice, the decision's declines of the unanswerable and false declines of the rest (issue 21's goals). */
function sliceFigures(driver: string, s: SlicesResult, plain: SlicesResult): Figure[] {
  const r = (x: number | null) => (x === null ? null : round(x, 3));
  const goals: Record<string, number> = { same: 0.95, cross: 0.85, docs: 1 };
  const out: Figure[] = (['same', 'cross', 'hard', 'docs'] as const).flatMap((n) => [{
    id: `retrieval.${driver}.slice.${n}.recall5`,
    label: `recall@5, ${n === 'same' ? 'same language' : n === 'cross' ? 'cross-language' : n === 'hard' ? 'hard paraphrases with typos' : 'document rows'} (${s.slices[n].n} questions, ${driver})`,
    unit: 'x',
    value: r(s.slices[n].recall5),
    ...(goals[n] !== undefined ? { goal: { op: '>=' as const, value: goals[n], on: 'value' as const } } : {}),
    detail: { misses: s.slices[n].misses, declined: s.slices[n].declined, falseDeclined: s.slices[n].falseDeclined, without_dictionary: { recall5: r(plain.slices[n].recall5), declined: r(plain.slices[n].declined) } },
  }, {
    id: `retrieval.${driver}.slice.${n}.falseDeclines`,
    label: `false declines, ${n === 'same' ? 'same language' : n === 'cross' ? 'cross-language' : n === 'hard' ? 'hard paraphrases with typos' : 'document rows'} (${driver})`,
    unit: 'x',
    value: r(s.slices[n].declined),
  }]);
  out.push(
    { id: `retrieval.${driver}.slice.unanswerable.declined`, label: `unanswerable declined (${s.slices.unanswerable.n} questions, ${driver})`, unit: 'x', value: r(s.slices.unanswerable.declined), goal: { op: '>=', value: 0.9, on: 'value' }, detail: { answered: s.slices.unanswerable.misses, without_dictionary: r(plain.slices.unanswerable.declined) } },
    { id: `retrieval.${driver}.slice.falseDeclines`, label: `false declines, answerable slices (${driver})`, unit: 'x', value: r(s.falseDeclines), goal: { op: '<=', value: 0.05, on: 'value' }, detail: { without_dictionary: r(plain.falseDeclines) } },
    { id: `retrieval.${driver}.slice.p50`, label: `search latency p50 over the slices (${driver})`, unit: 'ms', value: r(s.p50) },
  );
  return out;
}
