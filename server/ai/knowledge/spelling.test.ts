import { describe, expect, it } from 'vitest';
import { correct, editDistance, edits1, stemOf } from './spelling.js';
import { correctChinese, sameShape, sameSound } from './zh-spelling.js';
import { zhWordsByLength } from './lexicon.js';

const lexicon = new Set(['refund', 'return', 'cancel', 'size', 'swap', 'shop', 'guarante', 'dai', 'instal']);
const fix = (raw: string, words: Record<string, number> = {}) => correct(raw, stemOf(raw), lexicon, new Map(Object.entries(words)))?.to;

describe('spelling correction (issue 21)', () => {
  it('counts an adjacent transposition as one edit and stops early past the bound', () => {
    expect(editDistance('retrun', 'return')).toBe(1);
    expect(editDistance('refnd', 'refund')).toBe(1);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(edits1('ab')).toContain('ba');
  });

  it('reads a typo as the lexicon word one edit away, comparing as the index stems (dayz → days → dai)', () => {
    expect(fix('refnd')).toBe('refund');
    expect(fix('retrun')).toBe('return');
    expect(fix('cancle')).toBe('cancel');
    expect(fix('dayz')).toBe('dai');
    expect(fix('guarentee')).toBe('guarante');
    // two edits for a long word
    expect(fix('installmants')).toBe('instal');
  });

  it('drops a misspelt function word, prefers the words the shop holds, and leaves what is too far', () => {
    expect(correct('wich', 'wich', lexicon, new Map())).toMatchObject({ to: null, tier: 'function word' });
    expect(fix('dishwashr', { dishwash: 3 })).toBe('dishwash');
    expect(fix('sise', { size: 4 })).toBe('size');
    expect(fix('zorblax', { zebra: 1 })).toBeUndefined();
    // three letters: only a function word (no content correction)
    expect(fix('siz')).toBeUndefined();
  });
});

describe('Chinese typos (issue 21: 同音字, 形近字)', () => {
  const zh = (q: string) => correctChinese(q, zhWordsByLength());
  it('reads a character of the same sound or a similar shape as the lexicon word it spoils', () => {
    expect(zh('走的哪个快地')).toEqual({ text: '走的哪个快递', fixes: [['快地', '快递']] });
    expect(zh('退欵多久到').text).toBe('退款多久到');
    expect(zh('保休多久？').text).toBe('保修多久？');
    // a single character by its shape only: 卷 and 券 share 龹
    expect(zh('两张卷能一起用不').text).toBe('两张券能一起用不');
    expect(sameShape('卷', '券')).toBe(true);
    expect(sameSound('地', '递')).toBe(true);
  });

  it('leaves real words, particles, shared radicals and characters of other words as typed', () => {
    for (const q of ['保修多长时间？', '我的快递到哪了？', '有新人优惠吗？', '码数不对能换不', '新疆能送吗，要几天？', '满多少包邮？', '收到的商品破了怎么办？', '试卷在哪里', '我该穿什么尺码？']) {
      expect(zh(q), q).toEqual({ text: q, fixes: [] });
    }
    expect(zh('no Chinese here')).toEqual({ text: 'no Chinese here', fixes: [] });
  });
});
