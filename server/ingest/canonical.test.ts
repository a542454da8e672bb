import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical } from './ingest.js';

/** the recursive version canonical() replaced (issue 25): same text, so stored hashes still match */
function recursive(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(recursive).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${recursive((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

describe('canonical()', () => {
  it('writes what the recursive version wrote, key order aside', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => canonical(v) === recursive(v)), { numRuns: 300 });
    expect(canonical({ b: 1, a: [null, { d: 'x', c: true }], 10: 0, 2: 0 })).toBe('{"10":0,"2":0,"a":[null,{"c":true,"d":"x"}],"b":1}');
  });

  it('takes a 100,000-deep document without overflowing the stack', () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = { a: v };
    expect(canonical(v)).toHaveLength(100_000 * 6 + 1);
  });
});
