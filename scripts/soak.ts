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
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { call, CallError, connect, recordError, stats } from './lib/soak-client.js';
import { rssMb, startServer } from './lib/soak-server.js';

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
  const server = await startServer(env, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const rss: Array<{ t: number; mb: number; heapMb?: number; externalMb?: number }> = [];
  let code = 0;
  try {
    await connect(server.url, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
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
        const m = server.memory();
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
