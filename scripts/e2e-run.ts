/**
 * `npm run test:e2e [file…]`: the browser suite. Builds the client and the server when stale and
 * seeds the shared template data dir once (tests/e2e/harness.ts), then runs the test files
 * E2E_CONCURRENCY at a time (default 2, one per core), the slowest first (tests/durations.json)
 * so the run does not end waiting on one long file. Each file is its own `node --test` process
 * with its own server on its own copy of the template and its own Chromium; its output is
 * printed whole when it ends (no interleaving), with its wall time. No retries: a failure is a
 * failure. Takes no screenshots unless E2E_SHOTS=1. Writes test-results/e2e.json ({ file, seconds, ok, failure? }[]) for the timing table.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureServerBuilt } from './lib/server-build.mjs';
import { byDuration } from './lib/durations.mjs';
import { ensureBuilt, ROOT, seededTemplate } from '../tests/e2e/harness.js';

const args = process.argv.slice(2);
const files = (args.length ? args : readdirSync(path.join(ROOT, 'tests/e2e')).filter((f) => f.endsWith('.test.ts')).map((f) => `tests/e2e/${f}`)).map((f) =>
  path.relative(ROOT, path.resolve(f)),
);
const concurrency = Math.max(1, Number(process.env.E2E_CONCURRENCY) || 2);
// the files' screenshots (h.shot) are for a person looking at a run by hand: E2E_SHOTS=1 keeps them
process.env.E2E_SHOTS ??= '0';

await ensureBuilt();
await ensureServerBuilt();
await seededTemplate();

interface Result {
  file: string;
  seconds: number;
  ok: boolean;
  /** a failed file's own summary (node:test's "failing tests" part, or its last lines) */
  failure?: string;
}
const results: Result[] = [];
const queue = byDuration('e2e', files);

function runFile(file: string): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const r: Result = { file, seconds: (Date.now() - started) / 1000, ok: code === 0 };
      if (!r.ok) r.failure = failureOf(out);
      process.stdout.write(`\n── ${r.ok ? '✔' : '✘'} ${file} (${r.seconds.toFixed(1)} s)\n${out}`);
      resolve(r);
    });
  });
}

function failureOf(out: string): string {
  const at = out.lastIndexOf('✖ failing tests:');
  const part = at >= 0 ? out.slice(at) : out.split('\n').slice(-40).join('\n');
  return part.length > 6000 ? `${part.slice(0, 6000)}\n…` : part;
}

async function lane(): Promise<void> {
  for (let f = queue.shift(); f; f = queue.shift()) results.push(await runFile(f));
}
const lanes = Array.from({ length: Math.min(concurrency, files.length) }, lane);
// npm test writes E2E_ROOM_FILE once its API steps have ended: one more lane for the files left
const roomFile = process.env.E2E_ROOM_FILE;
let extra: Promise<void> | null = null;
const watch = roomFile
  ? setInterval(() => {
      if (extra || !queue.length || !existsSync(roomFile)) return;
      console.log(`\n── the API steps have ended: a third lane for the ${queue.length} browser files left`);
      extra = lane();
    }, 2_000)
  : null;
await Promise.all(lanes);
if (watch) clearInterval(watch);
await extra;

mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
writeFileSync(path.join(ROOT, 'test-results/e2e.json'), JSON.stringify(results, null, 2));
const failed = results.filter((r) => !r.ok);
console.log(`\nbrowser files: ${results.length - failed.length} passed, ${failed.length} failed${failed.length ? `: ${failed.map((r) => r.file).join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
