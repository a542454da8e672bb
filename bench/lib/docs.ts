import fs from 'node:fs';
import { markdownTable, type Report } from './report.js';

export const START = '<!-- bench:latest:start -->';
export const END = '<!-- bench:latest:end -->';

/** The "latest run" section of docs/performance.md: machine, facts, and the table. */
export function latestSection(r: Report): string {
  const m = r.machine;
  const lines = [
    START,
    `Run ${r.startedAt.replace('T', ' ').slice(0, 16)} UTC, ${r.durationS} s, \`npm run bench\` (${r.mode}).`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}; Node ${m.node}; ${m.chromium ?? 'Chromium ?'}; load average at the end ${m.loadAverage.join(' / ')}.`,
    `API driver: ${String(r.facts.apiDriver ?? '—')}; data: ${JSON.stringify(r.facts.apiData ?? {})}.`,
    '',
    markdownTable(r.figures),
    '',
    ...(r.errors.length ? ['Suites that failed in this run:', ...r.errors.map((e) => `- ${e.suite}: ${e.message.split('\n')[0]}`), ''] : []),
    END,
  ];
  return lines.join('\n');
}

/** Replaces the section between the markers (full runs only; the rest of the page is hand-written). */
export function updateDoc(file: string, r: Report): boolean {
  if (!fs.existsSync(file)) return false;
  const text = fs.readFileSync(file, 'utf8');
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) return false;
  fs.writeFileSync(file, text.slice(0, a) + latestSection(r) + text.slice(b + END.length));
  return true;
}


