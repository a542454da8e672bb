import { describe, expect, it } from 'vitest';
import { calibrate, judge, operating, relevances, type Sample } from './decide.js';
import { expandQuery } from './lexicon.js';

const hit = (title: string, text: string, score = 1, similarity: number | null = null) => ({ title, text, score, similarity });

describe('the retrieval decision', () => {
  it('uses a hit within the top-k whose relevance reaches the threshold; none used = declined', () => {
    const e = expandQuery('Can I pay with Bitcoin?');
    const hits = [hit('Payment methods', 'We accept Visa and PayPal.'), hit('Bitcoin', 'We accept Bitcoin payments.')];
    const at = (threshold: number, topK: number) => judge(hits, e, { threshold, topK });
    expect(at(0.5, 5).judged.map((j) => j.verdict)).toEqual(['used', 'used']);
    expect(at(0.7, 5).judged.map((j) => [j.verdict, j.relevance])).toEqual([['below_threshold', 0.5], ['used', 1]]);
    expect(at(0.7, 1)).toMatchObject({ answered: false, judged: [{ verdict: 'below_threshold', relevance: 0.5 }, { verdict: 'beyond_top_k' }] });
    // a close vector is used whatever its words (hybrid ranking)
    expect(judge([hit('Payment methods', 'We accept Visa.', 0, 0.8)], e, { threshold: 0.9, topK: 5 }).answered).toBe(true);
  });

  it('counts in part, for the passage holding the most, a concept another hit holds (issue 21)', () => {
    const e = expandQuery('What payment methods do you accept?');
    const pay = hit('Payment methods', 'Visa, PayPal and Apple Pay.');
    const ret = hit('Return policy', 'We accept returns within 30 days.');
    const off = hit('Size guide', 'Measure your chest.');
    expect(relevances([pay, off], e, 5)).toEqual([0.5, 0]);
    // only the passage that holds the most (the first among equals) counts what the others say
    expect(relevances([pay, ret], e, 5)).toEqual([0.75, 0.5]);
    expect(relevances([pay, ret], e, 5, 0)).toEqual([0.5, 0.5]);
    expect(relevances([off, ret], e, 5)[0]).toBe(0);
    // nothing retrieved speaks of cryptocurrency: the payment passage holds half the question
    expect(relevances([pay, ret], expandQuery('Can I pay with cryptocurrency?'), 5)[0]).toBe(0.5);
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
