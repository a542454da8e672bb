import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

describe('lineDiff', () => {
  it('keeps the common lines and marks the removed and the added ones with their numbers', () => {
    const d = lineDiff('a\nb\nc\nd', 'a\nc\nx\nd\ne');
    expect(d.map((l) => [l.op, l.old_no, l.new_no, l.text])).toEqual([
      ['same', 1, 1, 'a'],
      ['removed', 2, null, 'b'],
      ['same', 3, 2, 'c'],
      ['added', null, 3, 'x'],
      ['same', 4, 4, 'd'],
      ['added', null, 5, 'e'],
    ]);
  });

  it('the same text: every line kept; from nothing: every line added; CRLF reads as LF', () => {
    expect(lineDiff('x\r\ny', 'x\ny').every((l) => l.op === 'same')).toBe(true);
    expect(lineDiff('', 'p\nq').map((l) => l.op)).toEqual(['removed', 'added', 'added']);
  });
});
