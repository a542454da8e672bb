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

/**
 * Reference time of the demo data: the start of the hour (UTC) the demo is seeded in, so a fresh
 * console shows recent activity (the module homes chart the last 14 days; scheduled demo tasks
 * and call windows lie ahead and start by themselves). Everything else is drawn from seeded
 * random numbers, so the same reference time gives the same data: set DEMO_NOW (an ISO time) to
 * seed exactly the same timestamps again.
 */
export const DEMO_NOW = demoNow(process.env.DEMO_NOW);

function demoNow(fixed: string | undefined): number {
  const t = fixed ? Date.parse(fixed) : NaN;
  if (!Number.isNaN(t)) return t;
  const now = Date.now();
  return now - (now % 3_600_000);
}
export const daysAgo = (rng: Rng, maxDays: number, minDays = 0): Date =>
  new Date(DEMO_NOW - (minDays + rng.next() * (maxDays - minDays)) * 86400000);
