/**
 * CPU profile of the API bench's server child under load, for finding what the app adds to a
 * list request over the bare baseline route. Not part of `npm run bench`.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/api/profile.ts [case-id] [seconds] [ours|baseline]
 *
 * Starts bench/api/server-child.ts on the bench database (already seeded by a bench run),
 * signs in, captures the case's page query, loads ours (or the baseline) with 50 connections
 * for `seconds` (default 10) after a 3 s warm-up, with the child's CPU profiler on during the
 * measured load only (`/__bench/profile/*`), and prints where the busy time went. The profile
 * is written to bench/results/profiles/api-<case>-<side>.cpuprofile (open it in Chrome
 * DevTools).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { API_CASES, queryString } from './cases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './data.js';
import { signIn } from './login.js';

const root = path.resolve(import.meta.dirname, '../..');
const [caseId = 'shop-list.page1', secondsArg = '10', side = 'ours'] = process.argv.slice(2);
const c = API_CASES.find((x) => x.id === caseId);
if (!c || c.deepOf) throw new Error(`unknown or deep case ${caseId}: one of ${API_CASES.filter((x) => !x.deepOf).map((x) => x.id).join(', ')}`);
const dir = path.join(root, 'bench/results/profiles');
fs.mkdirSync(dir, { recursive: true });

const child = spawn(process.execPath, ['--import', 'tsx', 'bench/api/server-child.ts'], {
  cwd: root,
  env: { ...process.env, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'silent', SEED_DEMO: '1' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = await new Promise<{ app: number; baseline: number; driver: string }>((resolve, reject) => {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const line = out.split('\n').find((l) => l.startsWith('BENCH_READY '));
    if (line) resolve(JSON.parse(line.slice('BENCH_READY '.length)));
  });
  child.once('exit', (code) => reject(new Error(`server child exited (${code}) before it was ready:\n${out}`)));
});

const app = `http://127.0.0.1:${ready.app}`;
const base = `http://127.0.0.1:${ready.baseline}`;
const session = await signIn(app, ADMIN_EMAIL, ADMIN_PASSWORD);
const url = `/api/admin/${c.path}?${queryString(c.query)}`;
const cap = await fetch(`${base}/__bench/capture`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: c.id, url, headers: session.headers }),
}).then((r) => r.json() as Promise<{ status: number; page: unknown }>);
if (cap.status !== 200 || !cap.page) throw new Error(`capture failed: ${JSON.stringify(cap).slice(0, 400)}`);

const target = side === 'baseline' ? { url: `${base}/page/${c.id}` } : { url: app + url, headers: session.headers };
await autocannon({ ...target, connections: 50, duration: 3 });
await fetch(`${base}/__bench/profile/start`, { method: 'POST' });
const r = await autocannon({ ...target, connections: 50, duration: Number(secondsArg) });
const profile = await fetch(`${base}/__bench/profile/stop`, { method: 'POST' }).then((x) => x.text());
console.log(`${side} ${c.id}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);

child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
const dest = path.join(dir, `api-${c.id}-${side}.cpuprofile`);
fs.writeFileSync(dest, profile);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const prof = JSON.parse(fs.readFileSync(dest, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const self = new Map<string, number>();
let total = 0;
let idle = 0;
for (const n of prof.nodes) {
  const f = n.callFrame;
  if (f.functionName === '(idle)') {
    idle += n.hitCount;
    continue;
  }
  total += n.hitCount;
  const where = f.url ? `${f.url.replace(/^file:\/\//, '').replace(root + '/', '')}:${f.lineNumber + 1}` : '';
  const key = `${f.functionName || '(anonymous)'} ${where}`;
  self.set(key, (self.get(key) ?? 0) + n.hitCount);
}
// by package / area too: where the busy time goes
const area = new Map<string, number>();
for (const [k, v] of self) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(k);
  const a = m ? m[1] : k.includes('server/') ? 'server (ours)' : k.includes('bench/') ? 'bench' : /node:|internal/.test(k) || !k.includes('/') ? 'node / v8' : 'other';
  area.set(a, (area.get(a) ?? 0) + v);
}
const pct = (v: number) => `${((100 * v) / total).toFixed(1)}%`;
console.log(`\nbusy samples ${total}, idle ${idle} (${((100 * idle) / (total + idle)).toFixed(0)}% idle) → ${path.relative(root, dest)}`);
console.log('\nby area:');
for (const [k, v] of [...area].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(v).padStart(6)}  ${k}`);
console.log('\ntop functions (self):');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 45))) console.log(`  ${pct(v).padStart(6)}  ${k}`);
