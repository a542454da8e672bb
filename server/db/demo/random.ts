/** A seeded PRNG (mulberry32): the demo data is the same on every run. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  /** picks by weight: [[value, weight], ...] */
  weighted<T>(list: ReadonlyArray<readonly [T, number]>): T {
    const total = list.reduce((a, [, w]) => a + w, 0);
    let x = this.next() * total;
    for (const [v, w] of list) if ((x -= w) < 0) return v;
    return list[list.length - 1][0];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Fixed reference time of the demo data (so timestamps are the same on every run). */
export const DEMO_NOW = Date.UTC(2026, 9, 31, 12, 0, 0);
export const daysAgo = (rng: Rng, maxDays: number, minDays = 0): Date =>
  new Date(DEMO_NOW - (minDays + rng.next() * (maxDays - minDays)) * 86400000);
