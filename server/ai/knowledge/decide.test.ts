import { describe, expect, it } from 'vitest';
import { calibrate, decidedBy, judge, operating, type Sample } from './decide.js';
import { confidence, fitModel, signalsOf, type Signals } from './decide-model.js';
import { expandQuery } from './lexicon.js';

const hit = (title: string, text: string, score = 1, similarity: number | null = null) => ({ title, text, score, similarity });

describe('the retrieval decision', () => {
  it("gives each hit the model's confidence from its signals; uses a hit within the top-k that reaches the threshold; none used = declined", () => {
    const e = expandQuery('Can I pay with Bitcoin?');
    const hits = [hit('Payment methods', 'We accept Visa and PayPal.'), hit('Bitcoin', 'We accept Bitcoin payments.')];
    const sig = signalsOf(hits, e, 5);
    // the payment passage holds the topic; Bitcoin is said by the other hit
    expect(sig[0]).toEqual({ held_groups: 0.5, held_words: 0, elsewhere_groups: 0, elsewhere_words: 0.5, unsaid_words: 0 });
    expect(sig[1]).toEqual({ held_groups: 0.5, held_words: 0.5, elsewhere_groups: 0, elsewhere_words: 0, unsaid_words: 0 });
    const [c0, c1] = sig.map((x) => confidence(x));
    expect(c1).toBeGreaterThan(c0);
    const at = (threshold: number, topK: number) => judge(hits, e, { threshold, topK });
    expect(at(0, 5).judged.map((j) => j.verdict)).toEqual(['used', 'used']);
    const mid = (c0 + c1) / 2;
    expect(at(mid, 5).judged.map((j) => [j.verdict, j.relevance])).toEqual([['below_threshold', c0], ['used', c1]]);
    // top-k 1: the Bitcoin passage is beyond it, and nothing within it says Bitcoin
    const one = at(mid, 1);
    expect(one).toMatchObject({ answered: false, judged: [{ verdict: 'below_threshold' }, { verdict: 'beyond_top_k' }] });
    expect(one.judged[0].signals).toMatchObject({ held_groups: 0.5, unsaid_words: 0.5 });
    expect(one.judged[0].relevance).toBeLessThan(c0);
    // a hit holding nothing of the question has no confidence at all
    expect(confidence(signalsOf([hit('Size guide', 'Measure your chest.')], e, 5)[0])).toBe(0);
    // a close vector is used whatever its words (hybrid ranking)
    expect(judge([hit('Payment methods', 'We accept Visa.', 0, 0.8)], e, { threshold: 0.99, topK: 5 }).answered).toBe(true);
  });

  it('names the hit the decision rests on: the used one of the highest confidence, else the nearest to being used within the top-k', () => {
    const e = expandQuery('Can I pay with Bitcoin?');
    const hits = [hit('Payment methods', 'We accept Visa and PayPal.'), hit('Bitcoin', 'We accept Bitcoin payments.')];
    const c = judge(hits, e, { threshold: 0, topK: 5 }).judged.map((j) => j.relevance);
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    // answered: the second hit, the more confident of the two used
    const answered = judge(hits, e, { threshold: (c[0] + c[1]) / 2, topK: 5 });
    expect(answered.decider).toBe(1);
    expect(decidedBy(answered)).toEqual({ rank: 2, confidence: r3(c[1]), signals: { held_groups: 0.5, held_words: 0.5, elsewhere_groups: 0, elsewhere_words: 0, unsaid_words: 0 } });
    // declined: the best within the top-k, below the threshold
    const declined = judge(hits, e, { threshold: 0.99, topK: 1 });
    expect(declined.answered).toBe(false);
    expect(decidedBy(declined)).toMatchObject({ rank: 1, signals: { held_groups: 0.5, unsaid_words: 0.5 } });
    expect(decidedBy(declined).confidence).toBeLessThan(0.99);
    // used for a close vector alone: that hit decided, though its confidence is below the threshold
    const byVector = judge([hits[1], hit('Payment methods', 'We accept Visa.', 0, 0.8)], e, { threshold: 0.99, topK: 5 });
    expect(byVector).toMatchObject({ answered: true, decider: 1 });
    // nothing retrieved: no hit decided
    expect(decidedBy(judge([], e, { threshold: 0.5, topK: 5 }))).toEqual({ rank: null, confidence: 0, signals: { held_groups: 0, held_words: 0, elsewhere_groups: 0, elsewhere_words: 0, unsaid_words: 0 } });
  });

  it('the fit: a share held raises the confidence, a word nothing says lowers it; deterministic', () => {
    const s = (held: number, unsaid: number): Signals => ({ held_groups: held, held_words: 0, elsewhere_groups: 0, elsewhere_words: 1 - held - unsaid, unsaid_words: unsaid });
    const examples = [
      ...[1, 1, 0.8, 0.7, 0.6, 0.5].map((h) => ({ signals: s(h, 0), answerable: true })),
      ...[0.5, 0.5, 0.4, 0.6].map((h) => ({ signals: s(h, 1 - h), answerable: false })),
      { signals: s(0.5, 0.5), answerable: true },
    ];
    const m = fitModel(examples);
    expect(m.weights.held_groups).toBeGreaterThan(0);
    expect(m.weights.unsaid_words).toBeLessThan(0);
    expect(fitModel(examples)).toEqual(m);
    expect(confidence(s(0.5, 0), m)).toBeGreaterThan(confidence(s(0.5, 0.5), m));
  });

  it('weighs a common Chinese word less than a telling one', () => {
    const e = expandQuery('如果不喜欢可以退吗？');
    const w = new Map(e.concepts.map((c, i) => [c[0], e.weights[i]]));
    expect(w.get('如果')).toBeLessThan(0.3);
    expect(w.get('return')).toBe(1);
    expect(expandQuery('支持比特币付款吗？').weights.every((x) => x > 0.9)).toBe(true);
  });

  it('calibration keeps unanswerable questions answered within the bound and then declines the fewest answerable ones', () => {
    const s = (answerable: boolean, ...relevances: number[]): Sample => ({ answerable, relevances });
    const samples = [s(true, 1), s(true, 0.8), s(true, 0.5, 0.9), s(false, 0.3), s(false, 0.45), s(false, 0.2, 0.1)];
    // no false decline and no unanswerable answered from 0.5 to 0.8: the highest, top-k 5
    expect(calibrate(samples)).toEqual({ threshold: 0.8, topK: 5, falseDeclines: 0, answeredUnanswerable: 0 });
    // top-k 1 would decline the third (its answer ranks second)
    expect(operating(samples, 0.8, 1)).toEqual({ threshold: 0.8, topK: 1, falseDeclines: 1 / 3, answeredUnanswerable: 0 });
    // an unanswerable question as relevant as the answerable ones: a bound of 0 costs a false decline
    const hard = [...samples, s(false, 0.85)];
    expect(calibrate(hard, 0)).toMatchObject({ threshold: 0.9, falseDeclines: 1 / 3, answeredUnanswerable: 0 });
  });
});
