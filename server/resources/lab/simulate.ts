/**
 * The simulated model runner (no model is called from the console): a deterministic answer and
 * score per sample, so runs, demo data and tests are repeatable. A real runner would write the
 * same result rows through the same `advance` route.
 */
import type { Sample } from './samples.js';

/** 32-bit FNV-1a hash of a string. */
export function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const words = (s: string) => new Set(s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));

/** Word overlap (Jaccard) of two texts, 0…1. */
export function overlap(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (!x.size && !y.size) return 1;
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / (x.size + y.size - both);
}

export interface SimulatedResult {
  output: string;
  exit_code: string;
  /** null when the exit code does not need a semantics score */
  score: number | null;
  passed: boolean;
  latency_ms: number;
}

/**
 * One sample's simulated run. `exitCodes` are the configured exit codes with their
 * need-semantics-score flag; the code is picked by hash, the score is the word overlap of the
 * answer with the expected answer (0–100) when the code needs it.
 */
export function simulate(seed: string, sample: Sample, exitCodes: Array<{ code: string; need_semantics_score: number }>): SimulatedResult {
  const h = hash(`${seed}|${sample.input}`);
  const good = h % 4 !== 0;
  const output = good && sample.expected ? sample.expected : `[simulated] ${sample.input.slice(0, 200)}`;
  const ec = exitCodes.length ? exitCodes[h % exitCodes.length] : { code: 'resolved', need_semantics_score: 1 };
  const score = ec.need_semantics_score ? Math.round((sample.expected ? overlap(output, sample.expected) : 0.5) * 10000) / 100 : null;
  return { output, exit_code: ec.code, score, passed: score === null ? true : score >= 60, latency_ms: 300 + (h % 2700) };
}
