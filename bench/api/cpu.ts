/**
 * Server CPU time per request, ours against the baseline, in alternating turns (as the bench
 * does): req/s is bounded by the whole machine (autocannon, the app and PostgreSQL share its
 * cores), CPU µs per request of the server process is what the app itself adds. Not part of
 * `npm run bench`.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/api/cpu.ts [case-id] [turns] [seconds-per-turn]
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { API_CASES, queryString } from './cases.js';
import { envelopeOk, rowsOk } from './load.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './data.js';
import { signIn } from './login.js';

const root = path.resolve(import.meta.dirname, '../..');
const [caseId = 'shop-list.page1', turnsArg = '3', secondsArg = '5'] = process.argv.slice(2);
const c = API_CASES.find((x) => x.id === caseId);
if (!c || c.deepOf) throw new Error(`unknown or deep case ${caseId}`);

const child = spawn(process.execPath, ['--import', 'tsx', 'bench/api/server-child.ts'], {
  cwd: root,
  env: { ...process.env, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'silent', SEED_DEMO: '1' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const ready = await new Promise<{ app: number; baseline: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('BENCH_READY '));
      if (line) resolve(JSON.parse(line.slice('BENCH_READY '.length)));
    });
    child.once('exit', (code) => reject(new Error(`server child exited (${code}):\n${out}`)));
  });
  const app = `http://127.0.0.1:${ready.app}`;
  const base = `http://127.0.0.1:${ready.baseline}`;
  const session = await signIn(app, ADMIN_EMAIL, ADMIN_PASSWORD);
  const url = `/api/admin/${c.path}?${queryString(c.query)}`;
  await fetch(`${base}/__bench/capture`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: c.id, url, headers: session.headers }),
  });
  const sides = {
    ours: { url: app + url, headers: session.headers },
    base: { url: `${base}/page/${c.id}` },
  };
  const cpu = async () => {
    const u = (await fetch(`${base}/__bench/cpu`).then((r) => r.json())) as { user: number; system: number };
    return u.user + u.system;
  };
  // every PostgreSQL process's CPU time (Linux /proc; 0 elsewhere), in µs
  const tick = 1e6 / 100;
  const pgCpu = () => {
    let t = 0;
    for (const pid of fs.existsSync('/proc') ? fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)) : []) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (name !== 'postgres') continue;
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        t += (Number(f[11]) + Number(f[12])) * tick;
      } catch {
        /* gone */
      }
    }
    return t;
  };
  const self = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  // as the bench: a check of every reply (the envelope's code for ours, status and a JSON array for the baseline)
  const check = (name: 'ours' | 'base') => ({
    requests: [{ onResponse: name === 'ours' ? (status: number, body: string) => void envelopeOk(status, body) : (status: number, body: string) => void rowsOk(status, body) }],
  });
  const sum = { ours: { req: 0, s: 0, cpu: 0, pg: 0, ac: 0 }, base: { req: 0, s: 0, cpu: 0, pg: 0, ac: 0 } };
  for (const t of Object.values(sides)) await autocannon({ ...t, connections: 50, duration: 3 });
  for (let i = 0; i < Number(turnsArg); i++) {
    for (const [name, t] of Object.entries(sides) as Array<[keyof typeof sides, (typeof sides)['ours']]>) {
      const c0 = await cpu();
      const p0 = pgCpu();
      const a0 = self();
      const r = await autocannon({ ...t, connections: 50, duration: Number(secondsArg), ...check(name) });
      const ac = self() - a0;
      const pgUsed = pgCpu() - p0;
      const used = (await cpu()) - c0;
      const n = r.requests.total;
      sum[name].req += n;
      sum[name].s += r.duration;
      sum[name].cpu += used;
      sum[name].pg += pgUsed;
      sum[name].ac += ac;
      console.log(
        `${name.padEnd(4)} ${(n / r.duration).toFixed(0).padStart(5)} req/s  CPU µs/req: server ${(used / n).toFixed(0).padStart(4)}, PostgreSQL ${(pgUsed / n).toFixed(0).padStart(4)}, autocannon ${(ac / n).toFixed(0).padStart(4)}  (server busy ${((100 * used) / (r.duration * 1e6)).toFixed(0)}%)`,
      );
    }
  }
  const o = sum.ours;
  const b = sum.base;
  const line = (x: typeof o) => `${(x.req / x.s).toFixed(0)} req/s, CPU µs/req server ${(x.cpu / x.req).toFixed(0)} + PostgreSQL ${(x.pg / x.req).toFixed(0)} + autocannon ${(x.ac / x.req).toFixed(0)} = ${((x.cpu + x.pg + x.ac) / x.req).toFixed(0)}`;
  console.log(`\nours ${line(o)}\nbase ${line(b)}`);
  console.log(`req/s ratio ${(o.req / o.s / (b.req / b.s)).toFixed(2)}; server CPU ratio ${(b.cpu / b.req / (o.cpu / o.req)).toFixed(2)}; whole-machine CPU ratio ${((b.cpu + b.pg + b.ac) / b.req / ((o.cpu + o.pg + o.ac) / o.req)).toFixed(2)}`);
} finally {
  child.kill('SIGTERM');
}
