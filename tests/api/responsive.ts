/**
 * "The server keeps answering while it deals with this": `call` (a cheap list read) repeated
 * every 50 ms while `work` runs, and its slowest answer compared with a baseline measured in
 * the same test just before, the same calls on the same server with nothing else running.
 *
 * A fixed bound ("under a second") fails by chance on a loaded machine (it did, at load 20 on
 * a fresh clone); the bound here is the larger of one second and `factor` × the baseline, so a
 * machine that slows everything slows both, while work that holds the server's only thread
 * (inflating 100 MB, hashing 20 passwords on the main thread: seconds of CPU) still fails it on
 * a quiet machine and under load alike. Every call must also succeed.
 */
import { expect } from 'vitest';
import type { ApiResponse } from './harness.js';

export interface Responsiveness<T> {
  result: T;
  /** slowest call while `work` ran (ms) */
  slowest: number;
  /** slowest call of the baseline (ms) */
  baseline: number;
  /** calls made while `work` ran */
  calls: number;
  /** the bound `slowest` must stay under (ms) */
  bound: number;
}

async function repeat(call: () => Promise<ApiResponse>, until: () => boolean, stats: { slowest: number; calls: number }): Promise<void> {
  while (!until()) {
    const t0 = performance.now();
    const r = await call();
    stats.slowest = Math.max(stats.slowest, performance.now() - t0);
    stats.calls++;
    expect(r.body.code, r.body.msg).toBe(10000);
    await new Promise((res) => setTimeout(res, 50));
  }
}

export async function whileWorking<T>(call: () => Promise<ApiResponse>, work: () => Promise<T>, factor = 5): Promise<Responsiveness<T>> {
  const base = { slowest: 0, calls: 0 };
  await repeat(call, () => base.calls >= 8, base);
  const during = { slowest: 0, calls: 0 };
  let done = false;
  const lister = repeat(call, () => done, during);
  await new Promise((res) => setTimeout(res, 20));
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    await lister;
  }
  expect(during.calls).toBeGreaterThan(0);
  return { result, slowest: during.slowest, baseline: base.slowest, calls: during.calls, bound: Math.max(1000, factor * base.slowest) };
}

/** `slowest` under the bound, with both figures in the message. */
export function expectResponsive(r: Responsiveness<unknown>, where = 'slowest call'): void {
  expect(r.slowest, `${where}: ${Math.round(r.slowest)} ms while working, baseline ${Math.round(r.baseline)} ms, bound ${Math.round(r.bound)} ms`).toBeLessThan(r.bound);
}
