/**
 * The queue on PostgreSQL across processes (issue 20): no-op jobs per second with one and with two
 * worker processes (bench/queue/worker.ts, 8 at once each), and, as the baseline of that ratio in
 * the same run, pg-boss alone with one and with two worker processes (worker.ts BENCH_MODE=pgboss:
 * one loop fetching 8 and completing them together, no work_job row) — what the machine allows
 * when PostgreSQL and the workers share its cores. Then enqueue → start of jobs enqueued by an
 * API-only engine (concurrency 0, this process) on idle worker processes, which learn of them only
 * through LISTEN/NOTIFY or their 1-second poll. Samples in turn (engine one, engine two, pg-boss
 * one, pg-boss two; a process not in a sample is held still by SIGSTOP, its own pid, while the
 * queue is empty). Throughput is taken from the database's own clock: from the enqueue's commit to
 * the last job's finish.
 */
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { SqlDb } from '../../server/db/sql-db.js';
import { createBoss } from '../../server/jobs/boss.js';
import { JobEngine } from '../../server/jobs/engine.js';
import { noopKind } from '../../server/jobs/noop.js';
import { startTsx, type Child } from '../lib/proc.js';
import { quantile } from '../lib/stats.js';

export interface ProcFigures {
  one: number;
  two: number;
  /** pg-boss alone, one and two worker processes */
  bossOne: number;
  bossTwo: number;
  p50: number | null;
  p99: number | null;
  /**
   * the machine's idle CPU share (0–1) from each sample's enqueue commit until the bench saw its
   * last job done (polled every 50 ms), median of each kind: how much room was left
   */
  idle: { one: number; two: number; bossOne: number; bossTwo: number };
}

/** the machine's CPU times now (every core, every process): idle share between two readings */
const cpuTimes = () => os.cpus().reduce((a, c) => ({ idle: a.idle + c.times.idle, all: a.all + Object.values(c.times).reduce((x, y) => x + y, 0) }), { idle: 0, all: 0 });
/** the idle share since `a` (a cpuTimes reading), pushed onto `idles` */
function idleSince(a: ReturnType<typeof cpuTimes>, idles: number[]): void {
  const b = cpuTimes();
  idles.push(b.all > a.all ? (b.idle - a.idle) / (b.all - a.all) : 0);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => quantile(xs, 0.5) ?? 0;

/** done jobs among ids lo..hi (a primary-key range: the poll costs the database next to nothing) */
async function doneCount(db: SqlDb, lo: number, hi: number): Promise<number> {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job WHERE id BETWEEN $1 AND $2 AND state = 'done'`, [lo, hi])).rows[0].n;
}

/** n jobs enqueued in one transaction; jobs/s from its commit to the last finish (database clock) */
async function rate(db: SqlDb, api: JobEngine, tag: string, n: number, idles: number[]): Promise<number> {
  const ids = await db.tx(async (q) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await api.enqueue(q, 'system.noop', { tag })).id);
    return out;
  });
  const cpu = cpuTimes();
  const from = (await db.query<{ t: Date }>(`SELECT now() AS t`)).rows[0].t; // just after the commit
  const [lo, hi] = [Math.min(...ids), Math.max(...ids)];
  while ((await doneCount(db, lo, hi)) < n) await pause(50);
  idleSince(cpu, idles);
  const r = await db.query<{ s: number }>(`SELECT extract(epoch FROM max(finished_at) - $2::timestamptz)::float8 AS s FROM work_job WHERE id BETWEEN $1 AND $3`, [lo, from, hi]);
  return n / Math.max(Number(r.rows[0].s), 0.001);
}

/** pg-boss alone: n jobs inserted in one statement; jobs/s from its commit to the last completion */
async function bossRate(db: SqlDb, boss: PgBoss, table: string, n: number, idles: number[]): Promise<number> {
  const ids = Array.from({ length: n }, () => randomUUID());
  await boss.insert(ids.map((id) => ({ id, name: 'alone', data: {} })));
  const cpu = cpuTimes();
  const from = (await db.query<{ t: Date }>(`SELECT now() AS t`)).rows[0].t;
  const left = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE name = 'alone' AND id = ANY($1::uuid[]) AND state <> 'completed'`, [ids])).rows[0].n;
  while ((await left()) > 0) await pause(50);
  idleSince(cpu, idles);
  const r = await db.query<{ s: number }>(`SELECT extract(epoch FROM max(completed_on) - $2::timestamptz)::float8 AS s FROM ${table} WHERE name = 'alone' AND id = ANY($1::uuid[])`, [ids, from]);
  return n / Math.max(Number(r.rows[0].s), 0.001);
}

export async function measureProcs(opts: { db: SqlDb; url: string; schema: string; bossSchema: string; root: string; n: number; m: number; samples: number; log(msg: string): void }): Promise<ProcFigures> {
  const { db } = opts;
  const api = new JobEngine({ db, kinds: [noopKind], concurrency: 0, bossSchema: opts.bossSchema });
  await api.start();
  const aloneSchema = `${opts.bossSchema}_procs`;
  const { boss, detach } = createBoss(db, { schema: aloneSchema, supervise: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue('alone');
  const children: Child[] = [];
  const spawnWorker = async (mode: 'engine' | 'pgboss') => {
    const env = { DATABASE_URL: opts.url, BENCH_SCHEMA: opts.schema, BENCH_BOSS_SCHEMA: mode === 'pgboss' ? aloneSchema : opts.bossSchema, BENCH_MODE: mode };
    const c = startTsx(path.join('bench', 'queue', 'worker.ts'), [], env, opts.root);
    children.push(c);
    await c.message('QUEUE_READY', 180_000);
    return c;
  };
  try {
    // started together (each loads its modules for seconds): the run is not four starts longer
    const [, e2, b1, b2] = await Promise.all([spawnWorker('engine'), spawnWorker('engine'), spawnWorker('pgboss'), spawnWorker('pgboss')]);
    const hold = (...cs: Child[]) => cs.forEach((c) => c.proc.kill('SIGSTOP'));
    const wake = (...cs: Child[]) => cs.forEach((c) => c.proc.kill('SIGCONT'));
    hold(b1, b2); // the pg-boss workers poll every 10 ms when idle: held while the engine is sampled
    const [ones, twos, bossOnes, bossTwos] = [[], [], [], []] as number[][];
    const idle = { one: [] as number[], two: [] as number[], bossOne: [] as number[], bossTwo: [] as number[] };
    const table = `"${aloneSchema}".job`;
    for (let s = 0; s < opts.samples; s++) {
      hold(e2);
      ones.push(await rate(db, api, `procs-one-${s}`, opts.n, idle.one));
      wake(e2);
      twos.push(await rate(db, api, `procs-two-${s}`, opts.n, idle.two));
      wake(b1);
      bossOnes.push(await bossRate(db, boss, table, opts.n, idle.bossOne));
      wake(b2);
      bossTwos.push(await bossRate(db, boss, table, opts.n, idle.bossTwo));
      hold(b1, b2);
    }
    const r = (xs: number[]) => xs.map(Math.round).join(', ');
    const pc = (xs: number[]) => `${Math.round(median(xs) * 100)} %`;
    opts.log(`queue on postgres: engine, one worker process ${r(ones)} / two ${r(twos)} jobs/s; pg-boss alone, one ${r(bossOnes)} / two ${r(bossTwos)} (in turn)`);
    opts.log(`queue on postgres: CPU idle (median of the samples): engine one ${pc(idle.one)} / two ${pc(idle.two)}; pg-boss alone one ${pc(idle.bossOne)} / two ${pc(idle.bossTwo)}`);
    // enqueue → start: one job at a time from this API-only process onto the idle engine workers
    // (the pg-boss workers stay held)
    opts.log('queue on postgres: enqueue on an API-only process → start on a worker process…');
    const remote: number[] = [];
    for (let i = 0; i < opts.m; i++) {
      remote.push((await db.tx((q) => api.enqueue(q, 'system.noop', { tag: 'procs-remote' }))).id);
      await pause(25);
    }
    while ((await doneCount(db, remote[0], remote[remote.length - 1])) < opts.m) await pause(50);
    const lat = await db.query<{ ms: number }>(`SELECT (extract(epoch FROM started_at - created_at) * 1000)::float8 AS ms FROM work_job WHERE id = ANY($1)`, [remote]);
    const ms = lat.rows.map((x) => Number(x.ms));
    const idles = { one: median(idle.one), two: median(idle.two), bossOne: median(idle.bossOne), bossTwo: median(idle.bossTwo) };
    return { one: median(ones), two: median(twos), bossOne: median(bossOnes), bossTwo: median(bossTwos), p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), idle: idles };
  } finally {
    for (const c of children) c.proc.kill('SIGCONT');
    await Promise.all(children.map((c) => c.stop()));
    await boss.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => undefined);
    detach();
    await api.stop();
  }
}
