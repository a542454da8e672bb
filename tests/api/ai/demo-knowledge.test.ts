// @db both — retrieval SQL and the learn_doc trigger over the seeded demo knowledge
/**
 * Retrieval over the demo knowledge (issue 21): every demo document is indexed (the learn_doc
 * trigger's INSERT case, migration 0028) and found by its own words in hit testing; questions in
 * one language find the other language's policies (the lexicon, server/ai/knowledge/lexicon.ts);
 * the built-in responder declines what nothing in the shop answers and answers what something does,
 * by a threshold and top-k chosen on the development questions (server/ai/knowledge/decide.ts).
 * The labelled questions are in knowledge-questions.ts; the figures are printed and stated in
 * docs/ai.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuestion } from '../../../server/ai/answer.js';
import { calibrate, DEFAULT_RETRIEVAL, judge, operating, type Sample } from '../../../server/ai/knowledge/decide.js';
import { bestSignals, DECISION_MODEL, fitModel, type Signals } from '../../../server/ai/knowledge/decide-model.js';
import { searchKnowledge } from '../../../server/ai/retrieval/search.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import {
  EN_SAME,
  EN_TO_ZH,
  EN_TYPOS,
  EN_TWO_CONCEPTS,
  EN_TYPOS_TO_ZH,
  HELD_OUT_EN_TO_ZH,
  HELD_OUT_UNANSWERABLE,
  HELD_OUT_ZH_TO_EN,
  UNANSWERABLE_EN,
  UNANSWERABLE_MORE,
  UNANSWERABLE_ZH,
  ZH_SAME,
  ZH_TO_EN,
  ZH_TWO_CONCEPTS,
  ZH_TYPOS,
  type Labelled,
} from './knowledge-questions.js';

let s: TestServer;
let admin: ApiClient;

const hitTest = (body: Record<string, unknown>) => admin.ok<any>('POST', 'knowledge/hit-test', body);

beforeAll(async () => {
  s = await startServer({ seedDemo: true });
  admin = await s.login();
}, 180_000);

afterAll(async () => {
  await s?.close();
});

describe('the demo documents are indexed', () => {
  it('every learned demo document is found in hit testing by a sentence of its own text, in its shop', async () => {
    const docs = (await s.db.query<{ id: number; shop_id: number; name: string; content: string }>(
      `SELECT id, shop_id, name, content FROM learn_doc WHERE status = 1 ORDER BY id`,
    )).rows;
    expect(docs.length).toBeGreaterThanOrEqual(5);
    for (const d of docs) {
      // a line from the middle page of the document (not its title), as a customer might paste it
      const page = d.content.split('\f')[1] ?? d.content;
      const line = page.split('\n').map((l) => l.trim()).filter((l) => l.length > 20 && !l.startsWith('#')).at(-1)!;
      const r = await hitTest({ shop_id: d.shop_id, query: line, source_types: ['learn_doc'] });
      expect(r.list.length, `${d.name}: ${line}`).toBeGreaterThan(0);
      expect(r.list[0], `${d.name}: ${line}`).toMatchObject({ source_type: 'learn_doc', source_id: d.id, title: d.name });
      expect(r.list[0].text).toContain(line);
      // and among all of the shop's knowledge, by its title
      const byTitle = await hitTest({ shop_id: d.shop_id, query: d.name.replace(/\.\w+$/, '').replace(/-/g, ' ') });
      expect(byTitle.list.map((h: any) => `${h.source_type}:${h.source_id}`), d.name).toContain(`learn_doc:${d.id}`);
    }
    const chunks = await s.db.query<{ n: number }>(`SELECT count(DISTINCT source_id)::int AS n FROM knowledge_chunk WHERE source_type = 'learn_doc' AND source_id = ANY($1::int[])`, [docs.map((d) => d.id)]);
    expect(chunks.rows[0].n).toBe(docs.length);
  });

  it('a document inserted already learned is indexed without a learning job; a failed one is not', async () => {
    const shop = (await s.db.query<{ id: number }>(`SELECT id FROM shop ORDER BY id LIMIT 1`)).rows[0].id;
    const text = 'Our pick-your-own orchard opens every Saturday; baskets are lent free of charge.';
    const ins = await s.db.query<{ id: number }>(
      `INSERT INTO learn_doc (shop_id, name, file_type, size, status, content, error, file) VALUES ($1, 'orchard.txt', 'txt', $2, 1, $3, '', $4), ($1, 'orchard-failed.txt', 'txt', 1, 2, $3, 'broken', $4) RETURNING id`,
      [shop, text.length, text, Buffer.from(text)],
    );
    const r = await hitTest({ shop_id: shop, query: 'orchard baskets Saturday' });
    expect(r.list.filter((h: any) => h.source_type === 'learn_doc').map((h: any) => h.source_id)).toEqual([ins.rows[0].id]);
  });
});

/** A demo shop of the language with the full set of policies and no documents. */
async function demoShop(zh: boolean): Promise<number> {
  const r = await s.db.query<{ id: number }>(
    `SELECT p.shop_id AS id FROM policy p JOIN shop sh ON sh.id = p.shop_id
      WHERE p.status = 1 AND p.title = $1 AND (sh.type = 2) = $2
        AND NOT EXISTS (SELECT 1 FROM learn_doc d WHERE d.shop_id = p.shop_id)
      ORDER BY p.shop_id LIMIT 1`,
    [zh ? '退换货政策' : 'Return policy', zh],
  );
  return r.rows[0].id;
}

async function hitAt5(shop: number, set: Labelled): Promise<{ hits: number; misses: string[] }> {
  const misses: string[] = [];
  for (const [q, title] of set) {
    const r = await hitTest({ shop_id: shop, query: q, limit: 5 });
    if (!r.list.some((h: any) => h.title === title)) misses.push(`${q} → ${title} (got ${r.list.map((h: any) => h.title).join(' | ') || 'nothing'})`);
  }
  return { hits: set.length - misses.length, misses };
}

describe('cross-language retrieval and knowing when not to answer', () => {
  let en: number;
  let zh: number;
  beforeAll(async () => {
    en = await demoShop(false);
    zh = await demoShop(true);
  });

  it('hit testing shows the words the lexicon added and the share of the question each chunk covers', async () => {
    const r = await hitTest({ shop_id: en, query: '退货期限是多久？' });
    expect(r.expanded_terms).toContain('return');
    expect(r.list[0]).toMatchObject({ title: 'Return policy', coverage: 1, matched_terms: '2 / 2' });
  });

  it('a Chinese question finds the English policy that answers it, and the reverse (hit@5)', async () => {
    const a = await hitAt5(en, ZH_TO_EN);
    const b = await hitAt5(zh, EN_TO_ZH);
    const n = ZH_TO_EN.length + EN_TO_ZH.length;
    console.log(`cross-language hit@5: ${a.hits + b.hits}/${n} (zh→en ${a.hits}/${ZH_TO_EN.length}, en→zh ${b.hits}/${EN_TO_ZH.length})\n  misses: ${[...a.misses, ...b.misses].join('\n  ') || 'none'}`);
    // stated in docs/ai.md: at least 26 of the 27
    expect(a.hits + b.hits).toBeGreaterThanOrEqual(26);
    const same = [await hitAt5(en, EN_SAME), await hitAt5(zh, ZH_SAME)];
    console.log(`same-language paraphrases hit@5: ${same[0].hits + same[1].hits}/${EN_SAME.length + ZH_SAME.length}\n  misses: ${[...same[0].misses, ...same[1].misses].join('\n  ') || 'none'}`);
    expect(same[0].hits + same[1].hits).toBeGreaterThanOrEqual(EN_SAME.length + ZH_SAME.length - 1);
    const held = [await hitAt5(en, HELD_OUT_ZH_TO_EN), await hitAt5(zh, HELD_OUT_EN_TO_ZH)];
    console.log(`held-out cross-language hit@5: ${held[0].hits + held[1].hits}/${HELD_OUT_ZH_TO_EN.length + HELD_OUT_EN_TO_ZH.length}\n  misses: ${[...held[0].misses, ...held[1].misses].join('\n  ') || 'none'}`);
    // a bound, not a target: the held-out questions are never used to tune (16 of 16 with the dictionary; 15 without)
    expect(held[0].hits + held[1].hits).toBe(HELD_OUT_ZH_TO_EN.length + HELD_OUT_EN_TO_ZH.length);
    // misspelt questions (development), read through the spelling correction (server/ai/knowledge/spelling.ts)
    const typos = [await hitAt5(en, EN_TYPOS), await hitAt5(zh, EN_TYPOS_TO_ZH), await hitAt5(zh, ZH_TYPOS)];
    const nTypos = EN_TYPOS.length + EN_TYPOS_TO_ZH.length + ZH_TYPOS.length;
    console.log(`misspelt questions hit@5: ${typos.reduce((a, t) => a + t.hits, 0)}/${nTypos}\n  misses: ${typos.flatMap((t) => t.misses).join('\n  ') || 'none'}`);
    expect(typos.reduce((a, t) => a + t.hits, 0)).toBeGreaterThanOrEqual(nTypos - 1);
    // the Chinese typos (同音字 / 形近字) are all read (server/ai/knowledge/zh-spelling.ts)
    expect(typos[2].misses).toEqual([]);
  });

  type Asked = Array<[number, string, string | null]>;
  const answerableOf = (pairs: Array<[number, Labelled]>): Asked => pairs.flatMap(([shop, set]) => set.map(([q, t]) => [shop, q, t] as [number, string, string]));
  const both = (qs: string[]): Asked => qs.flatMap((q) => [[en, q, null], [zh, q, null]] as Asked);
  const dev = (): Asked => [
    ...answerableOf([[en, ZH_TO_EN], [zh, EN_TO_ZH], [en, EN_SAME], [zh, ZH_SAME], [en, EN_TYPOS], [zh, EN_TYPOS_TO_ZH], [zh, ZH_TYPOS], [en, EN_TWO_CONCEPTS], [zh, ZH_TWO_CONCEPTS]]),
    ...both([...UNANSWERABLE_EN, ...UNANSWERABLE_ZH]),
  ];
  const heldOut = (): Asked => [...answerableOf([[en, HELD_OUT_ZH_TO_EN], [zh, HELD_OUT_EN_TO_ZH]]), ...both(HELD_OUT_UNANSWERABLE)];
  // written as development questions, made held out after measuring (knowledge-questions.ts says why)
  const heldOutMore = (): Asked => both(UNANSWERABLE_MORE);

  /**
   * The relevance (the decision model's confidence) of each question's first ten hits, as the
   * built-in responder ranks them (one chunk per source), and the signals of its best hit within
   * the default top-k (what the model is fitted on).
   */
  async function samplesOf(asked: Asked, dictionary = true): Promise<Array<Sample & { signals: Signals }>> {
    const out: Array<Sample & { signals: Signals }> = [];
    for (const [shop, q, title] of asked) {
      const r = await searchKnowledge(s.db, { query: q, shopId: shop, limit: 10, perSource: 1, dictionary });
      const d = judge(r.hits, r.expansion, { threshold: 1, topK: DEFAULT_RETRIEVAL.topK });
      out.push({ relevances: d.judged.map((j) => j.relevance), answerable: title !== null, signals: bestSignals(d.judged.map((j) => j.signals), DEFAULT_RETRIEVAL.topK) });
    }
    return out;
  }

  it('the default threshold and top-k are the ones the development questions pick; the held-out figures at them', async () => {
    const devSamples = await samplesOf(dev());
    // the decision model's weights are what the development questions fit (decide-model.ts), and nothing else
    const fitted = fitModel(devSamples.map((x) => ({ signals: x.signals, answerable: x.answerable })));
    console.log(`decision model fitted on the development set: ${JSON.stringify(fitted)}`);
    expect(fitted).toEqual(DECISION_MODEL);
    const picked = calibrate(devSamples);
    const held = operating(await samplesOf(heldOut()), DEFAULT_RETRIEVAL.threshold, DEFAULT_RETRIEVAL.topK);
    // the same without the bilingual dictionary (server/ai/knowledge/expand.ts), lexicon alone
    const at = (x: Sample[]) => operating(x, DEFAULT_RETRIEVAL.threshold, DEFAULT_RETRIEVAL.topK);
    const plain = { dev: at(await samplesOf(dev(), false)), held: at(await samplesOf(heldOut(), false)) };
    const pct = (o: { falseDeclines: number; answeredUnanswerable: number }) => `false declines ${(o.falseDeclines * 100).toFixed(1)} %, unanswerable answered ${(o.answeredUnanswerable * 100).toFixed(1)} %`;
    const sweep = [0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8].map((t) => {
      const o = operating(devSamples, t, DEFAULT_RETRIEVAL.topK);
      return `${t}: ${(o.falseDeclines * 100).toFixed(0)} % / ${(o.answeredUnanswerable * 100).toFixed(0)} %`;
    });
    console.log(
      `calibration on the development set: threshold ${picked.threshold}, top-k ${picked.topK} (false declines ${(picked.falseDeclines * 100).toFixed(1)} %, unanswerable answered ${(picked.answeredUnanswerable * 100).toFixed(1)} %)\n` +
        `  dev sweep at top-k ${DEFAULT_RETRIEVAL.topK} (false declines / unanswerable answered): ${sweep.join('; ')}\n` +
        `  held out at the defaults: ${pct(held)}\n` +
        `  without the dictionary: development ${pct(plain.dev)}; held out ${pct(plain.held)}`,
    );
    expect({ threshold: picked.threshold, topK: picked.topK }).toEqual({ threshold: DEFAULT_RETRIEVAL.threshold, topK: DEFAULT_RETRIEVAL.topK });
  }, 180_000);

  it("hit testing shows each chunk's relevance against the threshold, and a threshold tried there changes the decision", async () => {
    const q = 'Which couriers deliver my order?';
    const r = await hitTest({ shop_id: en, query: q });
    expect(r.decision).toMatchObject({ threshold: DEFAULT_RETRIEVAL.threshold, top_k: DEFAULT_RETRIEVAL.topK, source: 'default', answered: true });
    const top = r.list[0];
    expect(top).toMatchObject({ title: 'Shipping, carriers and delivery times', used: 1, verdict: 'used', threshold: DEFAULT_RETRIEVAL.threshold });
    expect(top.relevance).toBeGreaterThanOrEqual(DEFAULT_RETRIEVAL.threshold);
    // a stricter threshold tried on the page: a chunk is used exactly when it reaches it, and the decision follows
    for (const threshold of [Math.round((top.relevance - 0.001) * 1000) / 1000, 0.3, 0.99]) {
      const t = await hitTest({ shop_id: en, query: q, threshold });
      // among the answer's candidates (the built-in responder's: the first top-k, one chunk of a source)
      const used = t.list.map((h: any) => (h.answer_rank !== null && h.relevance >= threshold ? 1 : 0));
      expect(t.list.map((h: any) => h.used)).toEqual(used);
      expect(t.decision).toMatchObject({ threshold, source: 'request', answered: used.includes(1) });
    }
    const none = await hitTest({ shop_id: en, query: 'Do you offer gift wrapping?' });
    expect(none.decision.answered).toBe(false);
    expect(none.list.every((h: any) => h.used === 0 && h.relevance < DEFAULT_RETRIEVAL.threshold)).toBe(true);
    // top-k 1: only the first can be used
    const one = await hitTest({ shop_id: en, query: q, top_k: 1, threshold: 0 });
    expect(one.list.map((h: any) => h.verdict)).toEqual(one.list.map((_: unknown, i: number) => (i === 0 ? 'used' : 'beyond_top_k')));
    // the GET of the schema page takes them as query parameters
    const g = await admin.ok<any>('GET', 'knowledge/hit-test', { query: q, shop_id: en, threshold: 1, top_k: 2 });
    expect(g.decision).toMatchObject({ threshold: 1, top_k: 2, source: 'request' });
    // out of range: a 400 naming the field
    const bad = await admin.post('knowledge/hit-test', { shop_id: en, query: q, threshold: 1.5 });
    expect(bad.body.code).toBe(40001);
    expect(JSON.stringify(bad.body.data)).toContain('threshold');
  });

  it("a shop's saved threshold and top-k decide its answers; an assistant's override wins; null restores the defaults", async () => {
    const q = 'Can I send back something I bought?';
    const before = await answerQuestion(s.db, { question: q, shopId: en });
    expect(before.declined).toBe(false);
    const saved = await admin.ok<any>('POST', 'knowledge/settings', { shop_id: en, threshold: 1, top_k: 3 });
    expect(saved).toMatchObject({ shop_id: en, threshold: 1, top_k: 3, source: 'shop' });
    const r = await hitTest({ shop_id: en, query: q });
    expect(r.decision).toMatchObject({ threshold: 1, top_k: 3, source: 'shop' });
    const strict = await answerQuestion(s.db, { question: q, shopId: en });
    // the answer follows the shop's threshold exactly as hit testing shows it
    expect(strict.declined).toBe(!r.list.slice(0, 3).some((h: any) => h.relevance >= 1));
    // an assistant of the shop with its own threshold: a question the shop's bar declines is answered
    const loose = 'Do you offer gift wrapping?';
    expect((await answerQuestion(s.db, { question: loose, shopId: en })).declined).toBe(true);
    const a = await s.db.query<{ id: number }>(
      `INSERT INTO chat_assistant (name, shop_id, model, prompt, score_threshold, top_k) VALUES ('lenient', $1, 'gpt-4o', 'x', 0.05, 5) RETURNING id`,
      [en],
    );
    const lenient = await answerQuestion(s.db, { question: loose, shopId: en, assistantId: a.rows[0].id });
    expect(lenient.declined).toBe(false);
    expect(lenient.citations.length).toBeGreaterThan(0);
    const reset = await admin.ok<any>('POST', 'knowledge/settings', { shop_id: en, threshold: null, top_k: null });
    expect(reset).toMatchObject({ threshold: DEFAULT_RETRIEVAL.threshold, top_k: DEFAULT_RETRIEVAL.topK, source: 'default' });
    const half = await admin.ok<any>('POST', 'knowledge/settings', { shop_id: en, threshold: 0.5, top_k: null });
    expect(half).toMatchObject({ threshold: 0.5, top_k: DEFAULT_RETRIEVAL.topK, source: 'shop' });
    await admin.ok('POST', 'knowledge/settings', { shop_id: en, threshold: null, top_k: null });
    const bad = await admin.post('knowledge/settings', { shop_id: en, threshold: 0.5, top_k: 0 });
    expect(bad.body.code).toBe(40001);
    expect(JSON.stringify(bad.body.data)).toContain('top_k');
    const audit = await s.db.query(`SELECT 1 FROM audit_logs WHERE resource = 'knowledge_setting' AND target_id = $1`, [String(en)]);
    expect(audit.rows.length).toBe(4);
  });

  it('the built-in responder declines what nothing answers and answers the rest (both error rates bounded)', async () => {
    async function measure(name: string, asked: Asked) {
      const falseDeclines: string[] = [];
      const wrongSource: string[] = [];
      const guessed: string[] = [];
      let answerable = 0;
      for (const [shop, q, title] of asked) {
        const a = await answerQuestion(s.db, { question: q, shopId: shop });
        expect(a.declined).toBe(a.citations.length === 0);
        if (title === null) {
          if (a.citations.length) guessed.push(`${q} (shop ${shop === en ? 'en' : 'zh'}) → ${a.citations[0].title}`);
          continue;
        }
        answerable++;
        if (!a.citations.length) falseDeclines.push(q);
        else if (a.citations[0].title !== title) wrongSource.push(`${q} → ${a.citations[0].title}`);
      }
      const unanswerable = asked.length - answerable;
      console.log(
        `${name}: false declines ${falseDeclines.length}/${answerable}; answered from another source ${wrongSource.length}/${answerable}; ` +
          `unanswerable answered ${guessed.length}/${unanswerable}\n  false declines: ${falseDeclines.join(' | ') || 'none'}\n  other source: ${wrongSource.join(' | ') || 'none'}\n  guessed: ${guessed.join(' | ') || 'none'}`,
      );
      return { falseDeclines: falseDeclines.length / answerable, guessed: guessed.length / unanswerable };
    }
    const d = await measure('development set', dev());
    const h = await measure('held-out set', heldOut());
    const more = await measure('held-out unanswerable, second set', heldOutMore());
    // stated in docs/ai.md (the decision model, decide-model.ts, at 0.55 / 5): on the development set
    // (with its misspelt and two-concept questions) at most 6 of 73 false declines, at most 3 of 32
    // unanswerable answered; held out (bounds against regressions, not targets: never used to
    // tune) at most 1 false decline of 16 and 2 of 16 answered — the old rule's 0 and 0 were
    // better here, docs/ai.md says so —, and of the second unanswerable set at most 2 of 20
    expect(d.falseDeclines).toBeLessThanOrEqual(6 / 73);
    expect(d.guessed).toBeLessThanOrEqual(3 / 32);
    expect(h.falseDeclines).toBeLessThanOrEqual(1 / 16);
    expect(h.guessed).toBeLessThanOrEqual(2 / 16);
    expect(more.guessed).toBeLessThanOrEqual(2 / 20);
  }, 180_000);
});
