import { describe, expect, it } from 'vitest';
import { WEAK_WEIGHT } from './concept-words.js';
import { coverage, expandQuery } from './lexicon.js';

const added = (q: string) => expandQuery(q).added.map(([t]) => t);

describe('the customer-service lexicon', () => {
  it('expands in both directions and to English synonyms', () => {
    expect(added('怎么退货？')).toContain('return');
    expect(added('Can I return it?')).toContain('退货');
    expect(added('Which couriers do you use?')).toEqual(expect.arrayContaining(['carrier', '快递']));
    expect(added('Is there a guarantee?')).toEqual(expect.arrayContaining(['warranti', '质保', '保修']));
    expect(added('The weather is nice')).toEqual([]);
  });

  it('matches a phrase before its words ("customer service" is not customs) and phrases with dropped words in the raw text', () => {
    expect(added('What are your customer service hours?')).not.toContain('关税');
    expect(added('How long does it take?')).toContain('工作日');
    expect(expandQuery('How long does it take?').concepts).toEqual([]); // how long is no concept
  });

  it("makes concepts of what a question asks: jieba's words, single characters it cut apart kept together", () => {
    expect(expandQuery('有没有线下门店可以自提？').concepts).toEqual([['线下'], ['门店'], ['自提']]);
    // the lexicon's longer word is taken out first (保修期, not 保修 leaving 期)
    expect(expandQuery('保修期是多久？').concepts).toHaveLength(1);
    // a group's English phrase counts in a passage as the phrase
    expect(coverage(expandQuery('满多少包邮？').concepts, 'Free shipping on orders over $50.')).toBeGreaterThan(0);
    const c = expandQuery('Can I pay with Bitcoin?').concepts;
    expect(c).toHaveLength(2);
    expect(coverage(c, 'Payment methods\nWe accept Visa and PayPal.')).toBe(0.5);
    expect(coverage(expandQuery('保修多久？').concepts, 'Warranty\nA 12-month warranty.')).toBe(1);
  });

  it('weighs a generic second word lightly ("a warranty claim", "the return window"); a card charged is paid, not a battery charging', () => {
    const claim = expandQuery('How do I make a warranty claim?');
    expect(claim.weights).toEqual([1, WEAK_WEIGHT]);
    expect(coverage(claim.concepts, 'Warranty\nEvery jacket has a two-year warranty.', claim.weights)).toBeGreaterThan(0.55);
    expect(expandQuery("What's your return window?").weights).toEqual([1, WEAK_WEIGHT]);
    // the same group named by its own word weighs fully
    expect(expandQuery('What is the return deadline?').weights).toEqual([1, 1]);
    // a word nothing retrieved holds still weighs fully
    expect(expandQuery('Can I pay with cryptocurrency?').weights).toEqual([1, 1]);
    const card = expandQuery('When is my card charged?').concepts;
    expect(card).toHaveLength(1);
    expect(card[0]).toContain('card');
    expect(card[0]).not.toContain('batteri');
    expect(expandQuery('How long does charging the battery take?').concepts[0]).toContain('batteri');
  });
});
