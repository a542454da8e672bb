import { describe, expect, it } from 'vitest';
import { SHAPE_LIMITS, ShapeScanner, type ShapeLimits } from './json-shape.js';

/** the first limit `text` crosses, or null (the scanner over a whole text) */
const shapeProblem = (text: string, limits: ShapeLimits = SHAPE_LIMITS) => new ShapeScanner(limits).feed(Buffer.from(text, 'utf8'));

const deep = (n: number, inner = '1') => '{"a":'.repeat(n) + inner + '}'.repeat(n);

describe('JSON shape limits on the raw text', () => {
  it('passes ordinary bodies, empty containers and strings holding brackets, quotes and commas', () => {
    for (const t of ['{}', '[]', '{"a":[1,2,3],"b":{"c":"x,y]}{["}}', '{"s":"q\\"[{,"}', '[[],[[]],{}]', '"plain"', '12', 'not json {[']) {
      expect(shapeProblem(t), t).toBeNull();
    }
    expect(shapeProblem(deep(SHAPE_LIMITS.maxDepth - 1))).toBeNull();
    expect(shapeProblem(`[${Array(SHAPE_LIMITS.maxArray).fill(0).join(',')}]`)).toBeNull();
  });

  it('names the field where depth, array length, keys or string length is crossed', () => {
    const d = shapeProblem(`{"records":[{"raw":${deep(10_000)}}]}`);
    expect(d?.field).toBe('records.0.raw.a.a.a.a.a');
    expect(d?.message).toBe(`is nested deeper than ${SHAPE_LIMITS.maxDepth} levels / 嵌套超过 ${SHAPE_LIMITS.maxDepth} 层`);
    expect(shapeProblem('['.repeat(100_000))?.field).toBe('0.0.0.0.0.0.0.0');
    const wide = shapeProblem(`{"ids":[${Array(1_000_000).fill(1).join(',')}]}`);
    expect(wide).toEqual({ field: 'ids', message: `has more than ${SHAPE_LIMITS.maxArray} items / 超过 ${SHAPE_LIMITS.maxArray} 项` });
    expect(shapeProblem(`[${Array(1_000_000).fill(1).join(',')}]`)?.field).toBe('body');
    expect(shapeProblem(`{"a":{"list":[1,{"x":[${Array(SHAPE_LIMITS.maxArray + 1).fill('"v"').join(',')}]}]}}`)?.field).toBe('a.list.1.x');
    const keys = Array.from({ length: SHAPE_LIMITS.maxKeys + 1 }, (_, i) => `"k${i}":1`).join(',');
    expect(shapeProblem(`{"meta":{${keys}}}`)?.field).toBe('meta');
    const long = shapeProblem(`{"name":"ok","items":[{"text":"${'x'.repeat(SHAPE_LIMITS.maxString + 1)}"}]}`);
    expect(long?.field).toBe('items.0.text');
    expect(shapeProblem(`{"${'k'.repeat(SHAPE_LIMITS.maxString + 1)}":1}`)?.field).toBe('body');
  });

  it('gives the same answer however the body is cut into chunks (escapes, keys and characters split)', () => {
    const limits = { maxDepth: 4, maxArray: 3, maxKeys: 3, maxString: 5 };
    const texts = [
      '{"k\\"ey":[1,2,{"x":"q\\"[,"}],"b":{"c":[[[]]]}}',
      '{"名前":"ab中文","list":[1,2,3,4]}',
      '{"a":{"b":{"c":{"d":{"e":1}}}}}',
      '{"long":"abcdef"}',
      '{"a":1,"b":2,"c":3,"d":4}',
      '[[],[],[]]',
    ];
    for (const t of texts) {
      const whole = shapeProblem(t, limits);
      const bytes = Buffer.from(t, 'utf8');
      for (let cut = 1; cut < bytes.length; cut++) {
        const sc = new ShapeScanner(limits);
        sc.feed(bytes.subarray(0, cut));
        expect(sc.feed(bytes.subarray(cut)), `${t} cut at ${cut}`).toEqual(whole);
      }
    }
    expect(shapeProblem(texts[1], limits)).toEqual({ field: 'list', message: 'has more than 3 items / 超过 3 项' });
    expect(shapeProblem('{"名前":"ab中文x"}', limits)).toBeNull();
    expect(shapeProblem('{"名前":"ab中文xy"}', limits)?.field).toBe('名前');
  });

  it('reads a 16 MB body in one pass', () => {
    const big = `{"records":[${Array(1000).fill(`{"t":"${'x'.repeat(16_000)}"}`).join(',')}]}`;
    const t0 = performance.now();
    expect(shapeProblem(big)).toBeNull();
    console.info(`16 MB scanned in ${Math.round(performance.now() - t0)} ms`);
  });
});
