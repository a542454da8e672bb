/**
 * `npm run soak -- --minutes N`: the real server under a steady mixed load, to see it stay
 * correct and not leak (issue 12).
 *
 * Spawns the built server (build/server, `node build/server/server.js`) on a fresh database (embedded PGlite in a temp dir;
 * `--pg` uses a fresh schema on TEST_DATABASE_URL / DATABASE_URL), signs in, and keeps
 * `--connections` (default 100) clients busy for `--minutes` (default 10; decimals allowed):
 * about 80 % reads (lists with filters and pages, the signed-in user, details) and 20 % writes
 * (a session-category group created, renamed, deleted; a customer updated; a role created and
 * deleted), so the data does not grow without bound. Every reply must be HTTP 200 with the
 * envelope code 10000.
 *
 * Prints a line per interval (requests, req/s, errors, p99, the server's RSS) and a summary.
 * Exits 1 on any error (network, timeout, HTTP status, envelope code, a crash logged by the
 * server) or when the server's RSS grew by 10 % or more: the median RSS over the last tenth of
 * the run against the median over the tenth right after the warm-up (the first fifth, at most
 * 60 s: caches filling, JIT, PGlite's buffers); the server runs with --expose-gc and collects its
 * garbage every 5 s, so RSS is what it keeps. `--out file.json` writes the figures.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ensureServerBuilt, SERVER_ENTRY } from './lib/server-build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    pg: { type: 'boolean', default: false },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log('npm run soak -- [--minutes 10] [--connections 100] [--pg] [--out soak.json]');
  process.exit(0);
}
const minutes = Number(args.minutes);
const connections = Number(args.connections);
if (!(minutes > 0) || !(connections > 0)) throw new Error('--minutes and --connections must be positive numbers');
const durationMs = minutes * 60_000;
const warmupMs = Math.min(60_000, durationMs / 5);
const windowMs = Math.max(10_000, durationMs / 10);
const intervalMs = durationMs <= 120_000 ? 10_000 : 30_000;
const GROWTH_LIMIT = 0.1;
const MB = 1024 * 1024;

const ADMIN_EMAIL = 'soak-admin@example.com';
const ADMIN_PASSWORD = `soak-${randomBytes(9).toString('hex')}`;

// ---------------------------------------------------------------------------------------------
// the server

interface Memory {
  heap: number;
  external: number;
  buffers: number;
}
/** the server's latest report of its own memory */
let lastMemory: Memory | null = null;

interface Server {
  url: string;
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
  exited: () => boolean;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  // every 5 s the server collects its garbage (a full GC) and reports its memory on stderr: RSS
  // then measures what the server keeps, not garbage V8 has not got round to collecting yet
  // (without it the JS heap climbs for minutes under this load and falls back at the next
  // major GC, which reads as a leak in a short run)
  const probe = `data:text/javascript,setInterval(()=>{globalThis.gc();const m=process.memoryUsage();process.stderr.write('SOAKMEM '+JSON.stringify({heap:m.heapUsed,external:m.external,buffers:m.arrayBuffers})+'\\n')},5000).unref()`;
  await ensureServerBuilt({ quiet: true });
  const child = spawn(process.execPath, ['--expose-gc', '--import', probe, SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '1',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      STATIC_DIR: path.join(ROOT, 'no-dist'),
      // one address sends everything here: the per-address request limit would refuse most of it
      RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let gone = false;
  child.stdout.on('data', (d) => (text += d));
  child.stderr.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (line.startsWith('SOAKMEM ')) {
        try {
          lastMemory = JSON.parse(line.slice(8)) as Memory;
        } catch {
          /* a line cut in two */
        }
      } else if (line) text += line + '\n';
    }
  });
  const done = new Promise<void>((r) => child.once('exit', () => ((gone = true), r())));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 180 s:\n${text}`)), 180_000);
    const check = () => {
      const m = /running at (http:\/\/\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before it started:\n${text}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    output: () => text,
    exited: () => gone,
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(t);
    },
  };
}

/** resident set size of a process in MB (Linux /proc; elsewhere `ps`) */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    /* not Linux */
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024;
}

// ---------------------------------------------------------------------------------------------
// the client

interface Session {
  headers: Record<string, string>;
}

async function signIn(url: string): Promise<Session> {
  const res = await fetch(`${url}/api/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const body = (await res.json()) as { code: number; msg: string; data?: { user?: { token?: string } } };
  const token = body.data?.user?.token;
  if (body.code !== 10000 || !token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body)}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { headers: { 'admin-token': token, cookie } };
}

class CallError extends Error {}

const stats = {
  requests: 0,
  errors: 0,
  errorKinds: new Map<string, number>(),
  latencies: [] as number[],
  intervalLatencies: [] as number[],
  intervalRequests: 0,
  intervalErrors: 0,
  /** latencies per call (method + path), for the slowest calls in the summary */
  perCall: new Map<string, number[]>(),
};

function recordError(kind: string) {
  stats.errors++;
  stats.intervalErrors++;
  stats.errorKinds.set(kind, (stats.errorKinds.get(kind) ?? 0) + 1);
}

let session: Session;
let base = '';

/** One API call: HTTP 200 and envelope 10000 or it counts as an error (and throws). */
async function call<T = any>(method: 'GET' | 'POST', p: string, payload?: Record<string, unknown>): Promise<T> {
  const u = new URL(`${base}/api/admin/${p}`);
  if (method === 'GET') for (const [k, v] of Object.entries(payload ?? {})) u.searchParams.set(k, String(v));
  const t0 = performance.now();
  let kind = '';
  let data: T | undefined;
  try {
    const res = await fetch(u, {
      method,
      headers: { ...session.headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      body: method === 'POST' ? JSON.stringify(payload ?? {}) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (res.status !== 200) kind = `HTTP ${res.status} ${method} ${p}: ${text.slice(0, 120)}`;
    else {
      const body = JSON.parse(text) as { code: number; msg: string; data: T };
      if (body.code !== 10000) kind = `code ${body.code} ${method} ${p}: ${body.msg.slice(0, 120)}`;
      data = body.data;
    }
  } catch (err) {
    kind = `${(err as Error).name === 'TimeoutError' ? 'timeout' : 'network'} ${method} ${p}: ${(err as Error).message}`;
  }
  const ms = performance.now() - t0;
  stats.requests++;
  stats.intervalRequests++;
  stats.latencies.push(ms);
  stats.intervalLatencies.push(ms);
  const key = `${method} ${p}`;
  let list = stats.perCall.get(key);
  if (!list) stats.perCall.set(key, (list = []));
  list.push(ms);
  if (kind) {
    recordError(kind);
    throw new CallError(kind);
  }
  return data as T;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

let shopIds: number[] = [];
let customerIds: number[] = [];

const READS: Array<() => Promise<unknown>> = [
  () => call('GET', 'shop/list', { page: 1 + Math.floor(Math.random() * 3), page_size: 20 }),
  () => call('GET', 'shop/list', { keyword: pick(['shop', 'store', 'a', '店']), page_size: 10 }),
  () => call('GET', 'customer/list', { page: 1, page_size: 20 }),
  () => call('GET', 'role/list', { page: 1, page_size: 10 }),
  () => call('GET', 'account/list', { page: 1, page_size: 10 }),
  () => call('GET', 'learn-doc/list', { page: 1, page_size: 10 }),
  () => call('GET', 'session-category/group/list', { page: 1, page_size: 20 }),
  () => call('GET', 'audit-log/list', { page: 1, page_size: 20 }),
  () => call('GET', 'User/Get'),
  () => call('GET', 'shop/detail', { id: pick(shopIds) }),
];

const WRITES: Array<() => Promise<unknown>> = [
  async () => {
    const g = await call<{ id: number }>('POST', 'session-category/group/create', { shop_id: pick(shopIds), name: `soak ${randomBytes(4).toString('hex')}`, sort: 1, remark: 'soak' });
    await call('POST', 'session-category/group/update', { id: g.id, shop_id: pick(shopIds), name: `soak renamed ${randomBytes(4).toString('hex')}`, sort: 2, remark: 'soak' });
    await call('POST', 'session-category/group/delete', { id: g.id });
  },
  () => call('POST', 'customer/update', { id: pick(customerIds), name: `Soak customer ${Math.floor(Math.random() * 1000)}` }),
  async () => {
    const r = await call<{ id: number }>('POST', 'role/create', { name: `soak role ${randomBytes(4).toString('hex')}` });
    await call('POST', 'role/delete', { id: r.id });
  },
];

async function worker(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if (Math.random() < 0.2) await pick(WRITES)();
      else await pick(READS)();
    } catch (err) {
      if (!(err instanceof CallError)) recordError(`client: ${(err as Error).message}`);
    }
  }
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);
const median = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 50);

async function main(): Promise<number> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-soak-'));
  let dropSchema: (() => Promise<void>) | null = null;
  const env: Record<string, string> = { DATA_DIR: path.join(tmp, 'data') };
  if (args.pg) {
    const pgUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
    if (!pgUrl) throw new Error('--pg needs TEST_DATABASE_URL or DATABASE_URL');
    const schema = `soak_${randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.end();
    const u = new URL(pgUrl);
    u.searchParams.set('options', `-c search_path=${schema}`);
    Object.assign(env, { DATABASE_URL: u.toString(), JOBS_SCHEMA: `${schema}_boss` });
    dropSchema = async () => {
      const d = new pg.Client({ connectionString: pgUrl });
      await d.connect();
      await d.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await d.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
      await d.end();
    };
  }
  const db = args.pg ? 'PostgreSQL' : 'PGlite';
  console.log(`soak: ${minutes} min, ${connections} connections, ${db}; starting the server…`);
  const server = await startServer(env);
  base = server.url;
  const rss: Array<{ t: number; mb: number; heapMb?: number; externalMb?: number }> = [];
  let code = 0;
  try {
    session = await signIn(base);
    shopIds = (await call<{ list: Array<{ id: number }> }>('GET', 'shop/list', { page_size: 50 })).list.map((x) => x.id);
    customerIds = (await call<{ list: Array<{ id: number }> }>('GET', 'customer/list', { page_size: 50 })).list.map((x) => x.id);
    if (!shopIds.length || !customerIds.length) throw new Error('no demo shops or customers to work on');
    stats.requests = 0;
    stats.perCall.clear();
    stats.latencies = [];
    stats.intervalLatencies = [];
    stats.intervalRequests = 0;

    const started = Date.now();
    const deadline = started + durationMs;
    const sample = () => {
      if (!server.exited()) {
        const m = lastMemory;
        rss.push({ t: Date.now() - started, mb: rssMb(server.pid), heapMb: m ? m.heap / MB : undefined, externalMb: m ? m.external / MB : undefined });
      }
    };
    sample();
    const sampler = setInterval(sample, 2_000);
    let last = started;
    const reporter = setInterval(() => {
      const now = Date.now();
      const sorted = stats.intervalLatencies.sort((a, b) => a - b);
      console.log(
        `${String(Math.round((now - started) / 1000)).padStart(5)} s  ${String(stats.intervalRequests).padStart(7)} req  ${(stats.intervalRequests / ((now - last) / 1000)).toFixed(0).padStart(5)} req/s  errors ${String(stats.intervalErrors).padStart(3)}  p99 ${pct(sorted, 99).toFixed(0).padStart(5)} ms  RSS ${(rss.at(-1)?.mb ?? 0).toFixed(0)} MB (JS heap ${(rss.at(-1)?.heapMb ?? 0).toFixed(0)} MB, external ${(rss.at(-1)?.externalMb ?? 0).toFixed(0)} MB)`,
      );
      stats.intervalLatencies = [];
      stats.intervalRequests = 0;
      stats.intervalErrors = 0;
      last = now;
    }, intervalMs);
    await Promise.all(Array.from({ length: connections }, () => worker(deadline)));
    clearInterval(sampler);
    clearInterval(reporter);
    sample();
    const elapsed = (Date.now() - started) / 1000;

    // crashes the server logged (a 500 is also an error reply, counted above)
    const crashes = server.output().split('\n').filter((l) => /"level":(50|60)/.test(l) || /request failed/.test(l));
    if (crashes.length) recordError(`server logged ${crashes.length} error lines, first: ${crashes[0].slice(0, 200)}`);
    if (server.exited()) recordError('server exited during the run');

    const after = rss.filter((x) => x.t >= warmupMs && x.t < warmupMs + windowMs).map((x) => x.mb);
    const end = rss.filter((x) => x.t >= elapsed * 1000 - windowMs).map((x) => x.mb);
    const baseline = median(after.length ? after : rss.map((x) => x.mb));
    const final = median(end.length ? end : rss.map((x) => x.mb));
    const growth = final / baseline - 1;
    const sorted = stats.latencies.sort((a, b) => a - b);
    const summary = {
      database: db,
      minutes,
      connections,
      requests: stats.requests,
      rps: Math.round(stats.requests / elapsed),
      errors: stats.errors,
      errorKinds: Object.fromEntries([...stats.errorKinds].slice(0, 20)),
      latencyMs: { p50: Math.round(pct(sorted, 50)), p99: Math.round(pct(sorted, 99)), max: Math.round(sorted.at(-1) ?? 0) },
      perCall: Object.fromEntries(
        [...stats.perCall].map(([k, v]) => {
          const x = v.sort((a, b) => a - b);
          return [k, { n: x.length, p50: Math.round(pct(x, 50)), p99: Math.round(pct(x, 99)) }];
        }),
      ),
      rssMb: {
        start: Math.round(rss[0]?.mb ?? 0),
        afterWarmup: Math.round(baseline),
        end: Math.round(final),
        max: Math.round(Math.max(...rss.map((x) => x.mb))),
        growthPct: Math.round(growth * 1000) / 10,
      },
      /** [seconds, RSS MB, JS heap MB, external MB] */
      rssTimeline: rss
        .filter((_, i) => i % Math.max(1, Math.round(intervalMs / 2000)) === 0)
        .map((x) => [Math.round(x.t / 1000), Math.round(x.mb), Math.round(x.heapMb ?? 0), Math.round(x.externalMb ?? 0)]),
      machine: { cpus: os.cpus().length, load: os.loadavg().map((x) => Math.round(x * 10) / 10) },
      finishedAt: new Date().toISOString(),
    };
    console.log(
      `\nsoak ${db}, ${minutes} min, ${connections} connections: ${summary.requests} requests (${summary.rps}/s), ${summary.errors} errors, ` +
        `p50 ${summary.latencyMs.p50} ms, p99 ${summary.latencyMs.p99} ms; RSS ${summary.rssMb.start} MB at start, ${summary.rssMb.afterWarmup} MB after warm-up, ` +
        `${summary.rssMb.end} MB at the end (${summary.rssMb.growthPct >= 0 ? '+' : ''}${summary.rssMb.growthPct} %), max ${summary.rssMb.max} MB; load average ${summary.machine.load.join(' ')} on ${summary.machine.cpus} CPUs`,
    );
    for (const [k, v] of Object.entries(summary.perCall).sort((a, b) => b[1].p99 - a[1].p99)) {
      console.log(`  ${k.padEnd(44)} ${String(v.n).padStart(7)} calls  p50 ${String(v.p50).padStart(5)} ms  p99 ${String(v.p99).padStart(6)} ms`);
    }
    for (const [k, n] of stats.errorKinds) console.log(`  error ×${n}: ${k}`);
    if (args.out) fs.writeFileSync(args.out, JSON.stringify(summary, null, 2) + '\n');
    if (stats.errors > 0) {
      console.log('FAIL: errors during the soak');
      code = 1;
    }
    if (growth >= GROWTH_LIMIT) {
      console.log(`FAIL: RSS grew ${summary.rssMb.growthPct} % (limit ${GROWTH_LIMIT * 100} %)`);
      code = 1;
    }
    if (!code) console.log('soak passed');
  } finally {
    await server.stop();
    await dropSchema?.().catch((err) => console.error('could not drop the soak schema:', err));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
