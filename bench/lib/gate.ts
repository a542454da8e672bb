/**
 * The regression gate (docs/performance.md, "Regression gate"): the smoke run in CI compares some
 * of its figures with the references in docs/performance-gate.json — the figures of the last full
 * run, committed — and fails when one is worse than its reference by more than the margin stated
 * there. Only figures steady enough on a loaded 2-core machine are judged (bundle sizes are byte
 * counts; start-up is judged on main-thread CPU, not on the wall clock); the render ratios are
 * judged with a margin wide enough for that machine's spread, so only a gross regression fails.
 * A full run of everything rewrites the references (the margins stay as written).
 */
import fs from 'node:fs';
import type { Figure } from './result.js';

export interface GateEntry {
  /** which number of the figure is compared */
  on: 'value' | 'ratio';
  /** the last full run's number */
  reference: number;
  /** how much worse may pass: `relative` (0.03 = 3 % over the reference) or `absolute` (in the figure's unit, or ratio points) */
  margin: { relative?: number; absolute?: number };
  /** why this margin: the measured spread it was chosen from */
  why: string;
}

export interface GateFile {
  /** what the references come from (the full run's date and commit) */
  from: string;
  /** higher is worse for every gated figure (sizes, times, ratios of ours ÷ baseline) */
  figures: Record<string, GateEntry>;
}

export interface GateRow {
  id: string;
  on: 'value' | 'ratio';
  reference: number;
  limit: number;
  measured: number | null;
  ok: boolean | null;
}

export const GATE_FILE = 'docs/performance-gate.json';

export function readGate(file: string): GateFile | null {
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as GateFile;
}

/** The highest number that passes: the reference plus its margin (the larger of relative and absolute). */
export function limitOf(e: GateEntry): number {
  const rel = e.reference * (1 + (e.margin.relative ?? 0));
  const abs = e.reference + (e.margin.absolute ?? 0);
  return Math.round(Math.max(rel, abs) * 1000) / 1000;
}

/** Every gated figure this run measured, against its limit; a gated figure not measured is not judged (null). */
export function judge(gate: GateFile, figures: readonly Figure[]): GateRow[] {
  return Object.entries(gate.figures).map(([id, e]) => {
    const f = figures.find((x) => x.id === id);
    const n = f ? (e.on === 'ratio' ? f.ratio : f.value) : null;
    const measured = n === null || n === undefined || Number.isNaN(n) ? null : n;
    const limit = limitOf(e);
    return { id, on: e.on, reference: e.reference, limit, measured, ok: measured === null ? null : measured <= limit };
  });
}

export function gateTable(rows: readonly GateRow[]): string {
  const lines = ['figure | on | reference | limit | this run | passes', '--- | --- | --- | --- | --- | ---'];
  for (const r of rows) lines.push(`${r.id} | ${r.on} | ${r.reference} | ${r.limit} | ${r.measured ?? '—'} | ${r.ok === null ? 'not measured' : r.ok ? 'yes' : 'NO'}`);
  return lines.join('\n');
}

/** A full run's figures as the new references (margins and reasons kept); false when nothing changed. */
export function updateReferences(file: string, figures: readonly Figure[], from: string): boolean {
  const gate = readGate(file);
  if (!gate) return false;
  let changed = false;
  for (const [id, e] of Object.entries(gate.figures)) {
    const f = figures.find((x) => x.id === id);
    const n = f ? (e.on === 'ratio' ? f.ratio : f.value) : null;
    if (n === null || n === undefined || Number.isNaN(n) || n === e.reference) continue;
    e.reference = n;
    changed = true;
  }
  if (!changed) return false;
  gate.from = from;
  fs.writeFileSync(file, `${JSON.stringify(gate, null, 2)}\n`);
  return true;
}
