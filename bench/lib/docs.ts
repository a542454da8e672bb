import fs from 'node:fs';
import { markdownTable, type Report } from './report.js';

const start = (name: string) => `<!-- bench:${name}:start -->`;
const end = (name: string) => `<!-- bench:${name}:end -->`;

/** A generated section of docs/performance.md: when, machine, facts, and the table. */
export function section(name: string, r: Report): string {
  const m = r.machine;
  const lines = [
    start(name),
    `Run ${r.startedAt.replace('T', ' ').slice(0, 16)} UTC, ${r.durationS} s, \`npm run bench\` (${r.mode}).`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}; Node ${m.node}; ${m.chromium ?? 'Chromium ?'}; load average at the end ${m.loadAverage.join(' / ')}.`,
    `API driver: ${String(r.facts.apiDriver ?? '—')}; data: ${JSON.stringify(r.facts.apiData ?? {})}.`,
    `Time per suite (s): ${JSON.stringify(r.facts.suiteSeconds ?? {})}.`,
    '',
    markdownTable(r.figures),
    '',
    ...(r.errors.length ? ['Suites that failed in this run:', ...r.errors.map((e) => `- ${e.suite}: ${e.message.split('\n')[0]}`), ''] : []),
    end(name),
  ];
  return lines.join('\n');
}

/** Replaces the named section between its markers (the rest of the page is hand-written). */
export function updateDoc(file: string, name: string, r: Report): boolean {
  if (!fs.existsSync(file)) return false;
  const text = fs.readFileSync(file, 'utf8');
  const a = text.indexOf(start(name));
  const b = text.indexOf(end(name));
  if (a < 0 || b < a) return false;
  fs.writeFileSync(file, text.slice(0, a) + section(name, r) + text.slice(b + end(name).length));
  return true;
}


