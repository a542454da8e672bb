/**
 * The work engine's queue (server/jobs): no-op jobs per second and enqueue → start latency,
 * on PGlite (a fresh data dir) and, with DATABASE_URL, on PostgreSQL (a fresh schema). The
 * engine runs in this process with its default concurrency, as `npm start` runs it. On
 * PostgreSQL also (issue 20): pg-boss alone on the same database in the same run (no work_job
 * row, a no-op handler, 8 at once: the baseline of `queue.postgres.vs-pgboss`), and the
 * enqueue → start latency of jobs enqueued by an API-only engine (concurrency 0) while another
 * engine works — the worker learns of them only through LISTEN/NOTIFY or its poll.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { migrate } from '../../server/db/migrate.js';
import { openPg } from '../../server/db/pg.js';
import { openPglite } from '../../server/db/pglite.js';
import type { SqlDb } from '../../server/db/sql-db.js';
import { createBoss } from '../../server/jobs/boss.js';
import { JobEngine } from '../../server/jobs/engine.js';
import { noopKind } from '../../server/jobs/noop.js';
import type { JobKind } from '../../server/jobs/types.js';
import { measureProcs } from './procs.js';
import type { Figure, Suite, SuiteContext } from '../lib/result.js';
import { quantile, round } from '../lib/stats.js';

interface Target {
  driver: 'pglite' | 'postgres';
  db: SqlDb;
  bossSchema: string;
  /** PostgreSQL: the schema the tables are in */
  schema?: string;
  cleanup(): Promise<void>;
}

async function pgliteTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-queue-'));
  const db = await openPglite(dir);
  return { driver: 'pglite', db, bossSchema: 'pgboss', cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function postgresTarget(url: string): Promise<Target> {
  const schema = `bq_${randomBytes(5).toString('hex')}`;
  const admin = await openPg(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = await openPg(url, { schema });
  return {
    driver: 'postgres',
    db,
    schema,
    bossSchema: `${schema}_boss`,
    async cleanup() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      for (const boss of ['boss', 'boss_alone', 'boss_procs']) await admin.query(`DROP SCHEMA IF EXISTS ${schema}_${boss} CASCADE`);
      await admin.close();
    },
  };
}

/** done jobs among ids lo..hi (a primary-key range, not a scan of every job's data) */
const doneCount = async (db: SqlDb, lo: number, hi: number) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job WHERE id BETWEEN $1 AND $2 AND state = 'done'`, [lo, hi])).rows[0].n;

/** the no-op kind, counting its runs: a throughput sample knows when its last job has run */
function countingNoop() {
  let wait: { tag: string; left: number; resolve(): void } | null = null;
  const kind: JobKind = {
    ...noopKind,
    async run(ctx) {
      const r = await noopKind.run(ctx as Parameters<typeof noopKind.run>[0]);
      if (wait && (ctx.job.data as { tag?: string }).tag === wait.tag && --wait.left === 0) wait.resolve();
      return r;
    },
  };
  const ran = (tag: string, n: number) => new Promise<void>((resolve) => (wait = { tag, left: n, resolve }));
  return { kind, ran };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => quantile(xs, 0.5) ?? 0;

interface Measured {
  rate: number;
  rates: number[];
  alone: number[];
  p50: number | null;
  p99: number | null;
  n: number;
}

/**
 * Throughput samples of the engine and (PostgreSQL) of pg-boss alone, taken in turn on the same
 * database, the order swapped every pair (engine, pg-boss, pg-boss, engine, …) so that a drift of
 * the load within a pair does not favour one side; the full run first drains one unrecorded pair
 * (a warm-up: the pool's connections, the prepared statements, the tables' first pages). Then
 * enqueue → start latency on the idle engine.
 */
async function measure(t: Target, ctx: SuiteContext): Promise<Measured> {
  await migrate(t.db);
  const concurrency = t.driver === 'postgres' ? 8 : 4; // the WORKERS defaults (server/config.ts)
  const noop = countingNoop();
  const engine = new JobEngine({ db: t.db, kinds: [noop.kind], concurrency, bossSchema: t.bossSchema });
  await engine.start();
  const alone = t.driver === 'postgres' ? await pgbossAlone(t) : null;
  try {
    const n = ctx.smoke ? 200 : 2000;
    // PostgreSQL: more pairs for the ratio; PGlite (no baseline) keeps 5 samples
    const samples = ctx.smoke ? 1 : alone ? 9 : 5;
    const rates: number[] = [];
    const aloneRates: number[] = [];
    // a backlog enqueued in one transaction, timed from its commit to the last job done
    const engineRate = async (tag: string) => {
      const ran = noop.ran(tag, n);
      const ids = await t.db.tx(async (q) => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) out.push((await engine.enqueue(q, 'system.noop', { tag })).id);
        return out;
      });
      const t0 = performance.now();
      await ran;
      while ((await doneCount(t.db, ids[0], ids[ids.length - 1])) < n) await pause(2);
      return n / ((performance.now() - t0) / 1000);
    };
    if (!ctx.smoke && alone) {
      await engineRate('warm-up');
      await alone.sample(n);
    }
    for (let s = 0; s < samples; s++) {
      if (alone && s % 2 === 1) aloneRates.push(await alone.sample(n));
      rates.push(await engineRate(`rate-${s}`));
      if (alone && s % 2 === 0) aloneRates.push(await alone.sample(n));
    }
    // latency: jobs enqueued one by one at a steady pace onto an idle engine
    const m = ctx.smoke ? 20 : 200;
    const latency: number[] = [];
    for (let i = 0; i < m; i++) {
      latency.push((await t.db.tx((q) => engine.enqueue(q, 'system.noop', { tag: 'latency' }))).id);
      await pause(25);
    }
    while ((await doneCount(t.db, latency[0], latency[m - 1])) < m) await pause(20);
    const lat = await t.db.query<{ ms: number }>(
      `SELECT (extract(epoch FROM started_at - created_at) * 1000)::float8 AS ms FROM work_job WHERE id BETWEEN $1 AND $2`,
      [latency[0], latency[m - 1]],
    );
    const ms = lat.rows.map((r) => Number(r.ms));
    return { rate: median(rates), rates, alone: aloneRates, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), n };
  } finally {
    await alone?.stop();
    await engine.stop();
  }
}

/**
 * pg-boss alone on the same database and pool: no work_job row, a no-op handler, the engine's
 * batch settings (one loop fetching up to 8 at once, as the engine fetches as many as it has free
 * slots, and completing what it fetched together). Each sample drains `n` jobs (jobs/s from the
 * first fetch).
 */
async function pgbossAlone(t: Target): Promise<{ sample(n: number): Promise<number>; stop(): Promise<void> }> {
  const { boss, detach } = createBoss(t.db, { schema: `${t.bossSchema}_alone`, supervise: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue('alone');
  return {
    async sample(n) {
      await boss.insert(Array.from({ length: n }, () => ({ name: 'alone', data: { tag: 'rate' } })));
      const t0 = performance.now();
      let done = 0;
      for (;;) {
        const jobs = await boss.fetch<{ tag: string }>('alone', { batchSize: 8 });
        if (!jobs.length) break;
        await Promise.all(jobs.map(async () => undefined));
        await boss.complete('alone', jobs.map((j) => j.id));
        done += jobs.length;
      }
      return done / ((performance.now() - t0) / 1000);
    },
    async stop() {
      await boss.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => undefined);
      detach();
    },
  };
}

export const queueSuite: Suite = {
  id: 'queue',
  title: 'work engine queue (no-op jobs)',
  async run(ctx) {
    const figures: Figure[] = [];
    const url = process.env.DATABASE_URL?.trim();
    const targets: Array<() => Promise<Target>> = [pgliteTarget];
    if (url) targets.push(() => postgresTarget(url));
    for (const make of targets) {
      const t = await make();
      try {
        ctx.log(`queue on ${t.driver}…`);
        const r = await measure(t, ctx);
        const onPg = t.driver === 'postgres';
        figures.push(
          {
            id: `queue.${t.driver}.rate`,
            label: `no-op jobs per second, ${r.n} queued, ${t.driver === "postgres" ? 8 : 4} at once (${t.driver})`,
            unit: 'jobs/s',
            value: round(r.rate),
            goal: { op: '>=', value: 200, on: 'value', when: 'on PostgreSQL', applies: onPg },
          },
          {
            id: `queue.${t.driver}.start-p50`,
            label: `enqueue → start, p50 (${t.driver})`,
            unit: 'ms',
            value: round(r.p50),
            goal: { op: '<=', value: 1000, on: 'value', when: 'on PostgreSQL', applies: onPg },
          },
          { id: `queue.${t.driver}.start-p99`, label: `enqueue → start, p99 (${t.driver})`, unit: 'ms', value: round(r.p99) },
        );
        if (onPg) {
          const alone = median(r.alone);
          const pairs = r.rates.map((x, i) => (x / r.alone[i]).toFixed(2)).join(', ');
          ctx.log(`queue on postgres: engine ${r.rates.map(Math.round).join(', ')} / pg-boss alone ${r.alone.map(Math.round).join(', ')} jobs/s (in turn; each pair ${pairs})`);
          const procs = await measureProcs({
            db: t.db,
            url: url!,
            schema: t.schema!,
            bossSchema: t.bossSchema,
            root: ctx.root,
            n: r.n,
            m: ctx.smoke ? 20 : 200,
            samples: ctx.smoke ? 1 : 9,
            log: ctx.log,
          });
          figures.push(
            {
              id: 'queue.postgres.vs-pgboss',
              label: `no-op jobs per second, ${r.n} queued, 8 at once: the engine ÷ pg-boss alone (no work_job row, one loop fetching 8 and completing them together); ${r.rates.length} pairs taken in turn (order swapped every pair, after a warm-up pair): medians, and the median of the pairs' ratios`,
              unit: 'jobs/s',
              value: round(r.rate),
              baseline: round(alone),
              baselineLabel: 'pg-boss alone',
              // the ratio is the median of the pairs' ratios (each pair taken back to back, so a
              // change of load between pairs does not move it), not the ratio of the medians
              ratio: alone > 0 ? Math.round(median(r.rates.map((x, i) => x / r.alone[i])) * 100) / 100 : null,
              goal: { op: '>=', value: 0.95, on: 'ratio' },
            },
            {
              id: 'queue.postgres.one-process',
              label: `no-op jobs per second, ${r.n} queued by an API-only process, one worker process (8 at once)`,
              unit: 'jobs/s',
              value: round(procs.one),
            },
            {
              id: 'queue.postgres.two-processes',
              label: `no-op jobs per second, ${r.n} queued by an API-only process, two worker processes (8 at once each) ÷ one`,
              unit: 'jobs/s',
              value: round(procs.two),
              baseline: round(procs.one),
              baselineLabel: 'one worker process',
              ratio: procs.one > 0 ? Math.round((procs.two / procs.one) * 100) / 100 : null,
              goal: { op: '>=', value: 1.6, on: 'ratio' },
              // room the machine had left: two workers cannot gain more than one left idle
              note: `CPU idle ${Math.round(procs.idle.one * 100)} % with one worker process, ${Math.round(procs.idle.two * 100)} % with two (pg-boss alone: ${Math.round(procs.idle.bossOne * 100)} / ${Math.round(procs.idle.bossTwo * 100)} %)`,
              detail: { idle: procs.idle },
            },
            {
              // what the machine allows: PostgreSQL and the workers share its cores
              id: 'queue.postgres.pgboss-two-processes',
              label: `the baseline of two ÷ one: pg-boss alone, ${r.n} jobs, two worker processes (one loop fetching 8 each, no work_job row) ÷ one, in the same run`,
              unit: 'jobs/s',
              value: round(procs.bossTwo),
              baseline: round(procs.bossOne),
              baselineLabel: 'pg-boss alone, one worker process',
              ratio: procs.bossOne > 0 ? Math.round((procs.bossTwo / procs.bossOne) * 100) / 100 : null,
            },
            {
              id: 'queue.postgres.remote-start-p50',
              label: 'enqueue on an API-only process → start on an idle worker process, p50 (LISTEN/NOTIFY)',
              unit: 'ms',
              value: round(procs.p50),
              goal: { op: '<=', value: 100, on: 'value' },
            },
            {
              id: 'queue.postgres.remote-start-p99',
              label: 'enqueue on an API-only process → start on an idle worker process, p99',
              unit: 'ms',
              value: round(procs.p99),
              goal: { op: '<=', value: 500, on: 'value' },
            },
          );
        }
      } finally {
        await t.db.close();
        await t.cleanup();
      }
    }
    if (!url) figures.push({ id: 'queue.postgres.rate', label: 'no-op jobs per second (postgres)', unit: 'jobs/s', value: null, skip: true, note: 'set DATABASE_URL to measure on PostgreSQL' });
    return figures;
  },
};
