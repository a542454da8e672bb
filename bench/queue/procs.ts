/**
 * The queue on PostgreSQL across processes (issue 20): no-op jobs per second with one and with two
 * worker processes (bench/queue/worker.ts, 8 at once each), and enqueue → start of jobs enqueued
 * by an API-only engine (concurrency 0, this process) on idle worker processes, which learn of
 * them only through LISTEN/NOTIFY or their 1-second poll. One and two processes are sampled in turn. Throughput is taken from the database's
 * own clock: from the enqueue's commit to the last job's finish.
 */
import path from 'node:path';
import type { SqlDb } from '../../server/db/sql-db.js';
import { JobEngine } from '../../server/jobs/engine.js';
import { noopKind } from '../../server/jobs/noop.js';
import { startTsx, type Child } from '../lib/proc.js';
import { quantile } from '../lib/stats.js';

export interface ProcFigures {
  one: number;
  two: number;
  p50: number | null;
  p99: number | null;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** done jobs among ids lo..hi (a primary-key range: the poll costs the database next to nothing) */
async function doneCount(db: SqlDb, lo: number, hi: number): Promise<number> {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job WHERE id BETWEEN $1 AND $2 AND state = 'done'`, [lo, hi])).rows[0].n;
}

/** n jobs enqueued in one transaction; jobs/s from its commit to the last finish (database clock) */
async function rate(db: SqlDb, api: JobEngine, tag: string, n: number): Promise<number> {
  const ids = await db.tx(async (q) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await api.enqueue(q, 'system.noop', { tag })).id);
    return out;
  });
  const from = (await db.query<{ t: Date }>(`SELECT now() AS t`)).rows[0].t; // just after the commit
  const [lo, hi] = [Math.min(...ids), Math.max(...ids)];
  while ((await doneCount(db, lo, hi)) < n) await pause(50);
  const r = await db.query<{ s: number }>(`SELECT extract(epoch FROM max(finished_at) - $2::timestamptz)::float8 AS s FROM work_job WHERE id BETWEEN $1 AND $3`, [lo, from, hi]);
  return n / Math.max(Number(r.rows[0].s), 0.001);
}

export async function measureProcs(opts: { db: SqlDb; url: string; schema: string; bossSchema: string; root: string; n: number; m: number; samples: number; log(msg: string): void }): Promise<ProcFigures> {
  const { db } = opts;
  const api = new JobEngine({ db, kinds: [noopKind], concurrency: 0, bossSchema: opts.bossSchema });
  await api.start();
  const children: Child[] = [];
  const spawnWorker = async () => {
    const c = startTsx(path.join('bench', 'queue', 'worker.ts'), [], { DATABASE_URL: opts.url, BENCH_SCHEMA: opts.schema, BENCH_BOSS_SCHEMA: opts.bossSchema }, opts.root);
    children.push(c);
    await c.message('QUEUE_READY', 180_000);
  };
  try {
    await spawnWorker();
    await spawnWorker();
    // one and two in turn: for "one" the second process is held still (SIGSTOP, its own pid) while
    // the queue is empty, so it fetches nothing; SIGCONT wakes it for "two"
    const ones: number[] = [];
    const twos: number[] = [];
    for (let s = 0; s < opts.samples; s++) {
      children[1].proc.kill('SIGSTOP');
      ones.push(await rate(db, api, `procs-one-${s}`, opts.n));
      children[1].proc.kill('SIGCONT');
      twos.push(await rate(db, api, `procs-two-${s}`, opts.n));
    }
    opts.log(`queue on postgres: one worker process ${ones.map(Math.round).join(', ')} / two ${twos.map(Math.round).join(', ')} jobs/s (in turn)`);
    const one = quantile(ones, 0.5) ?? 0;
    const two = quantile(twos, 0.5) ?? 0;
    // enqueue → start: one job at a time from this API-only process onto the idle workers
    opts.log('queue on postgres: enqueue on an API-only process → start on a worker process…');
    const remote: number[] = [];
    for (let i = 0; i < opts.m; i++) {
      remote.push((await db.tx((q) => api.enqueue(q, 'system.noop', { tag: 'procs-remote' }))).id);
      await pause(25);
    }
    while ((await doneCount(db, remote[0], remote[remote.length - 1])) < opts.m) await pause(50);
    const lat = await db.query<{ ms: number }>(`SELECT (extract(epoch FROM started_at - created_at) * 1000)::float8 AS ms FROM work_job WHERE id = ANY($1)`, [remote]);
    const ms = lat.rows.map((r) => Number(r.ms));
    return { one, two, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await api.stop();
  }
}
