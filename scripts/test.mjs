#!/usr/bin/env node
// `npm test`: the whole suite, in the order a failure is cheapest to find.
// Schema check → lint → types → unit tests → build → API tests (PGlite, then PostgreSQL when
// TEST_DATABASE_URL is set) → soak (60 s, 100 connections: no error, RSS growth < 10 %) →
// browser tests in Chromium → bench smoke.
import { spawnSync } from 'node:child_process';

const steps = [
  ['schemas:check', ['run', 'schemas:check']],
  ['lint', ['run', 'lint']],
  ['typecheck', ['run', 'typecheck']],
  ['unit', ['run', 'test:unit']],
  ['build', ['run', 'build']],
  ['api (PGlite)', ['run', 'test:api'], { TEST_DATABASE_URL: '' }],
];
if (process.env.TEST_DATABASE_URL) steps.push(['api (PostgreSQL)', ['run', 'test:api']]);
if (!process.argv.includes('--no-soak')) steps.push(['soak (60 s)', ['run', 'soak', '--', '--minutes', '1']]);
steps.push(['e2e (Chromium)', ['run', 'test:e2e']]);
if (!process.argv.includes('--no-bench')) steps.push(['bench smoke', ['run', 'bench', '--', '--smoke']]);

const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
let passed = 0;
let failed = 0;
const results = [];
for (const [name, args, env = {}] of steps) {
  if (only.length && !only.some((o) => name.startsWith(o))) continue;
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync('npm', args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  results.push(`${ok ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (ok) passed++;
  else failed++;
  if (!ok && !process.argv.includes('--keep-going')) break;
}
console.log('\n' + results.join('\n'));
console.log(`steps: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
