// Recorded durations of the test files (tests/durations.json: seconds per file and runner, as
// measured by `npm test`; refresh with `node scripts/test-timings.mjs --record`). Runners start
// the slowest files first so two workers end together instead of one waiting on a late long file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DURATIONS_FILE = path.join(ROOT, 'tests/durations.json');

/** { runner: { 'tests/…': seconds } } */
export function readDurations() {
  return existsSync(DURATIONS_FILE) ? JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) : {};
}

/** `files` (paths relative to the project root), slowest recorded first; unknown files first of all (they may be slow). */
export function byDuration(runner, files) {
  const known = readDurations()[runner] ?? {};
  const d = (f) => known[f] ?? Infinity;
  return [...files].sort((a, b) => d(b) - d(a) || a.localeCompare(b));
}
