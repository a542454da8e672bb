import fs from 'node:fs';
import path from 'node:path';
import type { Machine } from './machine.js';
import type { Figure, Goal } from './result.js';

export interface Report {
  startedAt: string;
  finishedAt: string;
  durationS: number;
  mode: 'full' | 'smoke';
  only: string[];
  machine: Machine;
  facts: Record<string, unknown>;
  figures: Figure[];
  /** suites that threw (the run still reports the rest) */
  errors: Array<{ suite: string; message: string }>;
}

const fmt = (n: number | null | undefined, unit?: string): string => {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const digits = unit === 'x' ? 2 : Math.abs(n) >= 100 ? 0 : 1;
  return `${n.toFixed(digits)}${unit && unit !== 'x' ? ' ' + unit : ''}`;
};

export const goalText = (g: Goal | undefined, unit: string): string => {
  if (!g) return '';
  const v = g.on === 'ratio' ? `ratio ${g.op} ${g.value}` : `${g.op} ${g.value} ${unit}`;
  return g.when ? `${v} (${g.when})` : v;
};

const okText = (f: Figure): string => (f.ok === true ? 'yes' : f.ok === false ? 'NO' : f.goal ? '?' : '');

export function tableRows(figures: Figure[]): string[][] {
  return figures.map((f) => [
    f.id,
    fmt(f.value, f.unit),
    f.baseline === undefined ? '' : fmt(f.baseline, f.unit),
    f.ratio === undefined ? '' : fmt(f.ratio, 'x'),
    goalText(f.goal, f.unit),
    okText(f),
    f.note ?? '',
  ]);
}

const HEAD = ['figure', 'ours', 'baseline', 'ratio', 'goal', 'met', 'note'];

/** Fixed-width table for the terminal. */
export function printTable(figures: Figure[], write: (s: string) => void = (s) => process.stdout.write(s)): void {
  const rows = [HEAD, ...tableRows(figures)];
  const widths = HEAD.map((_, i) => Math.min(60, Math.max(...rows.map((r) => r[i].length))));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  write('\n' + line(rows[0]) + '\n' + widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
  for (const r of rows.slice(1)) write(line(r) + '\n');
}

/** Markdown table (docs/performance.md is written from it). */
export function markdownTable(figures: Figure[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const rows = tableRows(figures).map((r) => `| ${r.map(esc).join(' | ')} |`);
  return [`| ${HEAD.join(' | ')} |`, `| ${HEAD.map(() => '---').join(' | ')} |`, ...rows].join('\n');
}

export function writeReport(file: string, report: Report): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
