import { describe, expect, it } from 'vitest';
import { correct, editDistance, edits1, stemOf } from './spelling.js';

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
