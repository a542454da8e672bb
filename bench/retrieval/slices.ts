/**
 * The slices of the retrieval bench (issue 21), each asked of its shop, shop-filtered, as the
 * built-in responder asks (one chunk per source, five sources):
 *
 *   - same: the labelled questions in the shop's language (questions.ts EN / ZH);
 *   - cross: the other language's fixed-wording questions (a Chinese question of an English shop);
 *   - hard: paraphrases with typos (HARD_EN / HARD_ZH);
 *   - docs: a line of a learned document (from its middle page, as a customer might paste it) —
 *     the document must be among the five;
 *   - unanswerable: questions nothing in a demo shop answers, asked of every labelled shop.
 *
 * Per slice recall@5 (answerable slices) and how the retrieval decision
 * (server/ai/knowledge/decide.ts, its defaults) goes: declines of the unanswerable ones, false
 * declines of the answerable ones.
 */
import { conceptsIn } from '../../server/ai/knowledge/coverage.js';
import { DEFAULT_RETRIEVAL, judge } from '../../server/ai/knowledge/decide.js';
import { searchKnowledge } from '../../server/ai/retrieval/search.js';
import type { SqlDb } from '../../server/db/sql-db.js';
import { quantile } from '../lib/stats.js';
import { buildQuestions, UNANSWERABLE, type LabelledShop } from './questions.js';

export type SliceName = 'same' | 'cross' | 'hard' | 'docs' | 'unanswerable';

interface Ask {
  slice: SliceName;
  shopId: number;
  question: string;
  /** what must be among the five ('policy:12', 'learn_doc:3'); null: nothing answers it */
  want: string | null;
}

export interface SliceResult {
  n: number;
  /** answerable slices: the share found among the first five */
  recall5: number | null;
  /** the share the decision declined (unanswerable: the right call; answerable: false declines) */
  declined: number;
  misses: Array<{ question: string; got: string[] }>;
  /**
   * answerable slices: the questions the decision declined (once per wording, with how many
   * shops declined it), the best relevance among the top-k against the threshold, and the
   * question's concepts the best hit lacks — why it was declined
   */
  falseDeclined: Array<{ question: string; times: number; best: number; missing: string[] }>;
}

export interface SlicesResult {
  slices: Record<SliceName, SliceResult>;
  /** declined answerable questions over all answerable slices */
  falseDeclines: number;
  p50: number | null;
  p99: number | null;
  n: number;
}

/** The shops with learned documents (the docs slice asks them; the smoke indexes them too). */
export async function docShops(db: SqlDb): Promise<number[]> {
  const r = await db.query<{ id: number }>(`SELECT DISTINCT shop_id AS id FROM learn_doc WHERE status = 1 AND shop_id IS NOT NULL ORDER BY 1 LIMIT 40`);
  return r.rows.map((x) => x.id);
}

/** One line of each learned document of those shops (the last long line of its middle page). */
async function docQuestions(db: SqlDb): Promise<Ask[]> {
  const r = await db.query<{ id: number; shop_id: number; content: string }>(
    `SELECT id, shop_id, content FROM learn_doc WHERE status = 1 AND shop_id = ANY($1::int[]) ORDER BY id LIMIT 100`,
    [await docShops(db)],
  );
  const out: Ask[] = [];
  for (const d of r.rows) {
    const page = d.content.split('\f')[1] ?? d.content;
    const line = page.split('\n').map((l) => l.trim()).filter((l) => l.length > 20 && !l.startsWith('#')).at(-1);
    if (line) out.push({ slice: 'docs', shopId: d.shop_id, question: line, want: `learn_doc:${d.id}` });
  }
  return out;
}

export async function buildAsks(db: SqlDb, shops: LabelledShop[], perTemplate: number): Promise<Ask[]> {
  const labelled = (['same', 'cross', 'hard'] as const).flatMap((slice) =>
    buildQuestions(shops, perTemplate, slice).map((q): Ask => ({ slice, shopId: q.shopId, question: q.question, want: `policy:${q.policyId}` })),
  );
  const unanswerable = shops.flatMap((s) => UNANSWERABLE.map((question): Ask => ({ slice: 'unanswerable', shopId: s.id, question, want: null })));
  return [...labelled, ...(await docQuestions(db)), ...unanswerable];
}

/** `dictionary: false`: the lexicon alone, without the bilingual dictionary (server/ai/knowledge/expand.ts), for comparison. */
export async function runSlices(db: SqlDb, asks: Ask[], opts: { dictionary?: boolean } = {}): Promise<SlicesResult> {
  for (const a of asks.slice(0, 20)) await searchKnowledge(db, { query: a.question, shopId: a.shopId, limit: 5, sync: false, dictionary: opts.dictionary }); // warm-up
  const ms: number[] = [];
  type Tally = { n: number; found: number; declined: number; misses: SliceResult['misses']; falseDeclined: Map<string, SliceResult['falseDeclined'][number]> };
  const per = new Map<SliceName, Tally>();
  for (const a of asks) {
    const t0 = performance.now();
    const r = await searchKnowledge(db, { query: a.question, shopId: a.shopId, limit: DEFAULT_RETRIEVAL.topK, perSource: 1, sync: false, dictionary: opts.dictionary });
    ms.push(performance.now() - t0);
    const d = judge(r.hits, r.expansion, DEFAULT_RETRIEVAL);
    const s: Tally = per.get(a.slice) ?? { n: 0, found: 0, declined: 0, misses: [], falseDeclined: new Map() };
    per.set(a.slice, s);
    s.n++;
    if (!d.answered) s.declined++;
    if (a.want === null) {
      if (d.answered && s.misses.length < 20) s.misses.push({ question: a.question, got: r.hits.slice(0, 1).map((h) => h.title) });
      continue;
    }
    if (!d.answered) {
      const top = d.judged.slice(0, DEFAULT_RETRIEVAL.topK).reduce<(typeof d.judged)[number] | null>((b, j) => (!b || j.relevance > b.relevance ? j : b), null);
      const has = top ? conceptsIn(r.expansion.concepts, `${top.hit.title}\n${top.hit.text}`) : r.expansion.concepts.map(() => false);
      const f = s.falseDeclined.get(a.question) ?? { question: a.question, times: 0, best: 0, missing: r.expansion.concepts.filter((_, i) => !has[i]).map((c) => c.slice(0, 3).join('|')) };
      f.times++;
      f.best = Math.max(f.best, Math.round((top?.relevance ?? 0) * 1000) / 1000);
      s.falseDeclined.set(a.question, f);
    }
    const found = r.hits.slice(0, 5).some((h) => `${h.source_type}:${h.source_id}` === a.want);
    if (found) s.found++;
    else if (s.misses.length < 20) s.misses.push({ question: a.question, got: r.hits.map((h) => h.title) });
  }
  const names: SliceName[] = ['same', 'cross', 'hard', 'docs', 'unanswerable'];
  const slices = Object.fromEntries(
    names.map((n) => {
      const s: Tally = per.get(n) ?? { n: 0, found: 0, declined: 0, misses: [], falseDeclined: new Map() };
      const falseDeclined = [...s.falseDeclined.values()].sort((x, y) => y.times - x.times || x.best - y.best).slice(0, 60);
      return [n, { n: s.n, recall5: n === 'unanswerable' || !s.n ? null : s.found / s.n, declined: s.n ? s.declined / s.n : 0, misses: s.misses, falseDeclined }];
    }),
  ) as Record<SliceName, SliceResult>;
  const answerable = names.filter((n) => n !== 'unanswerable').map((n) => per.get(n) ?? { n: 0, declined: 0 });
  const an = answerable.reduce((a, s) => a + s.n, 0);
  const falseDeclines = an ? answerable.reduce((a, s) => a + s.declined, 0) / an : 0;
  return { slices, falseDeclines, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), n: asks.length };
}
