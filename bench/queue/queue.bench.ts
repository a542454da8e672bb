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
import type { Figure, Suite, SuiteContext } from '../lib/result.js';
import { quantile, round } from '../lib/stats.js';

interface Target {
  driver: 'pglite' | 'postgres';
  db: SqlDb;
  bossSchema: string;
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
    bossSchema: `${schema}_boss`,
    async cleanup() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
      await admin.close();
    },
  };
}

const doneCount = async (db: SqlDb, tag: string) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job WHERE state = 'done' AND data->>'tag' = $1`, [tag])).rows[0].n;

async function measure(t: Target, ctx: SuiteContext): Promise<{ rate: number; p50: number | null; p99: number | null; n: number }> {
  await migrate(t.db);
  const concurrency = t.driver === 'postgres' ? 8 : 4; // the WORKERS defaults (server/config.ts)
  const engine = new JobEngine({ db: t.db, kinds: [noopKind], concurrency, bossSchema: t.bossSchema });
  await engine.start();
  try {
    // throughput: a backlog enqueued in one transaction, timed from commit to the last done
    const n = ctx.smoke ? 200 : 2000;
    await t.db.tx(async (q) => {
      for (let i = 0; i < n; i++) await engine.enqueue(q, 'system.noop', { tag: 'rate' });
    });
    const t0 = performance.now();
    while ((await doneCount(t.db, 'rate')) < n) await new Promise((r) => setTimeout(r, 20));
    const rate = n / ((performance.now() - t0) / 1000);
    // latency: jobs enqueued one by one at a steady pace onto an idle engine
    const m = ctx.smoke ? 20 : 200;
    for (let i = 0; i < m; i++) {
      await t.db.tx((q) => engine.enqueue(q, 'system.noop', { tag: 'latency' }));
      await new Promise((r) => setTimeout(r, 25));
    }
    while ((await doneCount(t.db, 'latency')) < m) await new Promise((r) => setTimeout(r, 20));
    const lat = await t.db.query<{ ms: number }>(
      `SELECT (extract(epoch FROM started_at - created_at) * 1000)::float8 AS ms FROM work_job WHERE data->>'tag' = 'latency'`,
    );
    const ms = lat.rows.map((r) => Number(r.ms));
    return { rate, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), n };
  } finally {
    await engine.stop();
  }
}

/**
 * pg-boss alone on the same database and pool, no work_job row, a no-op handler, 8 at once, in
 * its two natural shapes: 8 loops of fetch one → complete, and one loop of fetch 8 → complete
 * them together. Each drains `n` jobs; the faster one is the baseline (jobs/s from the first fetch).
 */
async function pgbossAlone(t: Target, n: number): Promise<number> {
  const { boss, detach } = createBoss(t.db, { schema: `${t.bossSchema}_alone`, supervise: false });
  boss.on('error', () => undefined);
  await boss.start();
  const drain = async (loops: number, batchSize: number): Promise<number> => {
    await boss.insert(Array.from({ length: n }, () => ({ name: 'alone', data: { tag: 'rate' } })));
    const t0 = performance.now();
    let done = 0;
    await Promise.all(
      Array.from({ length: loops }, async () => {
        for (;;) {
          const jobs = await boss.fetch<{ tag: string }>('alone', { batchSize });
          if (!jobs.length) return;
          await boss.complete('alone', jobs.map((j) => j.id));
          done += jobs.length;
        }
      }),
    );
    return done / ((performance.now() - t0) / 1000);
  };
  try {
    await boss.createQueue('alone');
    return Math.max(await drain(8, 1), await drain(1, 8));
  } finally {
    await boss.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => undefined);
    detach();
  }
}

/** enqueue → start of jobs enqueued by an API-only engine while a worker engine (8 at once) waits for work */
async function remoteStart(t: Target, m: number): Promise<{ p50: number | null; p99: number | null }> {
  const api = new JobEngine({ db: t.db, kinds: [noopKind], concurrency: 0, bossSchema: t.bossSchema });
  const worker = new JobEngine({ db: t.db, kinds: [noopKind], concurrency: 8, bossSchema: t.bossSchema });
  await api.start();
  await worker.start();
  try {
    for (let i = 0; i < m; i++) {
      await t.db.tx((q) => api.enqueue(q, 'system.noop', { tag: 'remote' }));
      await new Promise((r) => setTimeout(r, 25));
    }
    while ((await doneCount(t.db, 'remote')) < m) await new Promise((r) => setTimeout(r, 20));
    const lat = await t.db.query<{ ms: number }>(
      `SELECT (extract(epoch FROM started_at - created_at) * 1000)::float8 AS ms FROM work_job WHERE data->>'tag' = 'remote'`,
    );
    const ms = lat.rows.map((r) => Number(r.ms));
    return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
  } finally {
    await worker.stop();
    await api.stop();
  }
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
          ctx.log('queue on postgres: pg-boss alone, and jobs enqueued by an API-only engine…');
          const alone = await pgbossAlone(t, r.n);
          const remote = await remoteStart(t, ctx.smoke ? 20 : 200);
          figures.push(
            {
              id: 'queue.postgres.vs-pgboss',
              label: `no-op jobs per second, ${r.n} queued, 8 at once: the engine ÷ pg-boss alone (no work_job row; the faster of 8 × fetch 1 and 1 × fetch 8)`,
              unit: 'jobs/s',
              value: round(r.rate),
              baseline: round(alone),
              baselineLabel: 'pg-boss alone',
              ratio: alone > 0 ? Math.round((r.rate / alone) * 100) / 100 : null,
              goal: { op: '>=', value: 0.95, on: 'ratio' },
            },
            {
              id: 'queue.postgres.remote-start-p50',
              label: 'enqueue on an API-only engine → start on an idle worker, p50 (LISTEN/NOTIFY)',
              unit: 'ms',
              value: round(remote.p50),
              goal: { op: '<=', value: 100, on: 'value' },
            },
            {
              id: 'queue.postgres.remote-start-p99',
              label: 'enqueue on an API-only engine → start on an idle worker, p99',
              unit: 'ms',
              value: round(remote.p99),
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
