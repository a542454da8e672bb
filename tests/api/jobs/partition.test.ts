// @db both — a network partition between one worker and the database (PostgreSQL only; skips on PGlite)
/**
 * Issue 20: two worker processes, each reaching PostgreSQL through a TCP proxy of its own; one
 * of them is cut off while it runs jobs (a partition: the database and the other worker are
 * fine). After 15 s without its heartbeat the other worker — itself connected without a break
 * for long enough — judges it gone and takes its jobs over, as interruptions (no attempt spent).
 * When the link heals, the cut-off worker is still alive, registers again, and its old runs
 * write nothing (every write of a running job is fenced by its worker): each job is done once.
 * The cut is made while every job is seconds from its end, so no effect can have been written by
 * a run that is then taken over (docs/operations.md "Faults": the partition row).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPg } from '../../../server/db/pg.js';
import type { SqlDb } from '../../../server/db/sql-db.js';
import { JobEngine } from '../../../server/jobs/engine.js';
import { jobKinds } from '../../../server/jobs/kinds.js';
import { pgSchemaEnv, spawnServer, type ServerProcess } from '../process.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { until } from './until.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const JOBS = 4;
/** 30 s a job: time enough to start the other worker while the first one's jobs are far from their end */
const STEPS = 300;

describe.skipIf(!pgUrl)('a partition between one worker and the database (PostgreSQL)', () => {
  let pg: Awaited<ReturnType<typeof pgSchemaEnv>>;
  const proxies: TcpProxy[] = [];
  let db: SqlDb;
  let sender: JobEngine;
  let cutOff: ServerProcess;
  let other: ServerProcess;

  beforeAll(async () => {
    pg = await pgSchemaEnv(pgUrl!);
    const target = { host: new URL(pgUrl!).hostname, port: Number(new URL(pgUrl!).port || 5432) };
    proxies.push(await startTcpProxy(target), await startTcpProxy(target));
    cutOff = await spawnServer({ ...pg.env, DATABASE_URL: proxies[0].url(pg.env.DATABASE_URL), WORKERS: '4' }, 'server/worker.ts');
    db = await openPg(pgUrl!, { schema: pg.schema });
    sender = new JobEngine({ db, kinds: jobKinds, concurrency: 0, bossSchema: pg.env.JOBS_SCHEMA });
    await sender.start();
  }, 180_000);

  afterAll(async () => {
    for (const p of proxies) p.restore();
    await sender?.stop();
    await db?.close();
    await Promise.all([cutOff, other].map((p) => p?.stop().catch(() => undefined)));
    for (const p of proxies) await p.close();
    await pg?.drop();
  });

  const rows = (ids: number[]) =>
    db.query<{ id: number; state: string; attempts: number; interruptions: number; progress_done: number; worker_id: string | null }>(
      `SELECT id, state, attempts, interruptions, progress_done, worker_id FROM work_job WHERE id = ANY($1) ORDER BY id`,
      [ids],
    );
  const on = (p: ServerProcess, workerId: string | null) => !!workerId?.includes(`:${p.child.pid}:`);

  it("the other worker takes the cut-off worker's jobs; when the link heals nothing runs twice", async () => {
    const ids = await db.tx(async (q) => {
      const out: number[] = [];
      for (let i = 0; i < JOBS; i++) out.push((await sender.enqueue(q, 'system.noop', { steps: STEPS, marker: `partition-${i}` }, { maxAttempts: 1 })).id);
      return out;
    });
    // the first worker takes them all; then the other one starts
    await until(() => rows(ids), (r) => r.rows.every((j) => j.state === 'running' && on(cutOff, j.worker_id)), 60_000);
    other = await spawnServer({ ...pg.env, DATABASE_URL: proxies[1].url(pg.env.DATABASE_URL), WORKERS: '8' }, 'server/worker.ts');
    // the cut comes while each job is well before its end (seconds away from writing its effect)
    const before = await rows(ids);
    expect(before.rows.filter((j) => j.state !== 'running' || j.progress_done > STEPS - 30)).toEqual([]);
    proxies[0].cut();
    const stranded = before.rows.map((j) => j.id);
    // taken over by the other worker once the cut-off one is judged gone
    await until(() => rows(stranded), (r) => r.rows.every((j) => j.state === 'done' || on(other, j.worker_id)), 90_000);
    expect(cutOff.child.exitCode).toBeNull();
    proxies[0].restore();

    const end = await until(() => rows(ids), (r) => r.rows.every((j) => ['done', 'failed', 'cancelled'].includes(j.state)), 90_000);
    expect(end.rows.map((j) => j.state)).toEqual(ids.map(() => 'done'));
    expect(end.rows.map((j) => j.attempts)).toEqual(ids.map(() => 1));
    expect(end.rows.filter((j) => stranded.includes(j.id)).every((j) => j.interruptions >= 1)).toBe(true);
    const effects = await db.query<{ marker: string; n: number }>(
      `SELECT marker, count(*)::int AS n FROM work_job_effect WHERE marker LIKE 'partition-%' GROUP BY marker ORDER BY marker`,
    );
    expect(effects.rows).toEqual(ids.map((_, i) => ({ marker: `partition-${i}`, n: 1 })).sort((a, b) => a.marker.localeCompare(b.marker)));
    // the cut-off worker lived through it and is registered again
    await until(async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_worker WHERE pid = $1`, [cutOff.child.pid])).rows[0].n, (n) => n === 1, 30_000);
    expect(cutOff.child.exitCode).toBeNull();
    console.log(`partition: ${stranded.length} of ${JOBS} jobs were on the cut-off worker, taken over and done once`);
  }, 300_000);
});
