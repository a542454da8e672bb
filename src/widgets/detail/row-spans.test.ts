import { describe, expect, it } from 'vitest';
import { rowSpans } from './DetailView.js';

describe('rowSpans (detail items fill their rows)', () => {
  it('leaves full rows alone', () => {
    expect(rowSpans([1, 1, 2], 2)).toEqual([1, 1, 2]);
    expect(rowSpans([undefined, undefined, undefined], 3)).toEqual([1, 1, 1]);
  });
  it('stretches the item before one that would overflow its row', () => {
    expect(rowSpans([1, 2, 1, 1], 2)).toEqual(['filled', 2, 1, 1]);
  });
  it('stretches the last item of an unfinished last row', () => {
    expect(rowSpans([1, 1, 1], 2)).toEqual([1, 1, 'filled']);
    expect(rowSpans([1], 3)).toEqual(['filled']);
  });
  it('caps a span wider than the row', () => {
    expect(rowSpans([5, 1, 1], 2)).toEqual([2, 1, 1]);
  });
  it('has nothing to fill without items', () => {
    expect(rowSpans([], 2)).toEqual([]);
  });
});
