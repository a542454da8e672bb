import { describe, expect, it } from 'vitest';
import { bucketOf, pickDivert } from './plan.js';

const row = (id: number, percentage: number, shop_id: number | null = null) => ({ id, percentage, model_strategy_id: id * 10, shop_id });

describe('traffic split', () => {
  it('gives splits consecutive bucket ranges in id order; buckets past the sum fall through', () => {
    const rows = [row(1, 10), row(2, 30)];
    expect(pickDivert(rows, 0)?.id).toBe(1);
    expect(pickDivert(rows, 9)?.id).toBe(1);
    expect(pickDivert(rows, 10)?.id).toBe(2);
    expect(pickDivert(rows, 39)?.id).toBe(2);
    expect(pickDivert(rows, 40)).toBeNull();
  });

  it("uses the shop's own splits instead of the global ones when it has any", () => {
    const rows = [row(1, 100), row(2, 20, 7)];
    expect(pickDivert(rows, 50)).toBeNull();
    expect(pickDivert(rows, 5)?.id).toBe(2);
    expect(pickDivert([row(1, 100)], 50)?.id).toBe(1);
  });

  it('puts a session key in the same bucket every time, and spreads keys over 0–99', () => {
    expect(bucketOf('session-42')).toBe(bucketOf('session-42'));
    const seen = new Set(Array.from({ length: 2000 }, (_, i) => bucketOf(`k${i}`)));
    expect(Math.min(...seen)).toBe(0);
    expect(Math.max(...seen)).toBe(99);
    expect(seen.size).toBe(100);
  });
});
