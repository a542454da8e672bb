import { describe, expect, it } from 'vitest';
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

  it('makes concepts of what a question asks; unknown Chinese characters stay together', () => {
    expect(expandQuery('有没有线下门店可以自提？').concepts).toEqual([['线下门店'], ['自提']]);
    const c = expandQuery('Can I pay with Bitcoin?').concepts;
    expect(c).toHaveLength(2);
    expect(coverage(c, 'Payment methods\nWe accept Visa and PayPal.')).toBe(0.5);
    expect(coverage(expandQuery('保修多久？').concepts, 'Warranty\nA 12-month warranty.')).toBe(1);
  });
});
