// @db both — kill -9 and SIGTERM of worker processes (PostgreSQL only: several processes; skips on PGlite)
/**
 * Issue 20: infrastructure failures are not job failures. Long jobs allowed a single attempt run
 * through three rolling kill -9 restarts of their worker process and one SIGTERM: each one is
 * counted as an interruption, none spends the attempt, every job ends done with its effect
 * written once. SIGTERM hands the running jobs over before the process exits (they are queued
 * again, not left 'running' for a recovery to find). The PGlite single-process case is
 * crash-learn.test.ts. And a job whose delivery was fetched by a process that died before it
 * claimed the job is delivered again (it used to wait for pg-boss's expiry, 15 minutes); and a
 * job claimed for a live worker whose claim's answer was lost (the connection cut after the
 * commit) is queued again by that worker's own check instead of staying 'running' (the outage
 * test's one job left running, ci4 of session 23).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../process.js';
import { openRig, runsOn, type Rig } from './rig.js';
import { until } from './until.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const JOBS = 4;

describe.skipIf(!pgUrl)('kill -9 and SIGTERM spend no attempt (PostgreSQL)', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await openRig(pgUrl!);
    // the first process migrates; the test's own handle and enqueuer come after it
    await rig.spawn({ WORKERS: '0', ADMIN_PASSWORD: 'interruptions-password' });
    await rig.connect();
  }, 180_000);

  afterAll(() => rig?.close());

  const worker = () => rig.spawn({ WORKERS: '4' }, { entry: 'server/worker.ts' });
  const rows = (ids: number[]) => rig.rows(ids);
  /** every job runs on `p` and has made progress there since `after` */
  const runningOn = (ids: number[], p: ServerProcess) =>
    until(
      () => rows(ids),
      (r) => r.rows.filter((j) => j.state === 'running' && runsOn(p, j.worker_id)).length >= 1,
      60_000,
    );

  it('three rolling kill -9 restarts and a SIGTERM: every job done once, its one attempt unspent', async () => {
    const ids = await rig.enqueueNoop(JOBS, (i) => ({ steps: 120, marker: `interrupted-${i}` }), { maxAttempts: 1 });
    let current = await worker();
    for (let kill = 1; kill <= 3; kill++) {
      await runningOn(ids, current);
      await current.kill9();
      current = await worker();
    }
    // SIGTERM: the process ends its jobs at their next step and queues them again before it exits
    const before = await runningOn(ids, current);
    const onIt = before.rows.filter((j) => j.state === 'running').map((j) => j.id);
    await current.stop();
    expect(current.child.exitCode).toBe(0);
    const after = await rows(onIt);
    expect(after.rows.filter((j) => j.state === 'running'), 'jobs left running by a stopped process').toEqual([]);
    current = await worker();

    const end = await until(() => rows(ids), (r) => r.rows.every((j) => ['done', 'failed', 'cancelled'].includes(j.state)), 120_000);
    expect(end.rows.map((j) => j.state)).toEqual(ids.map(() => 'done'));
    expect(end.rows.map((j) => j.attempts)).toEqual(ids.map(() => 1));
    const total = end.rows.reduce((a, j) => a + j.interruptions, 0);
    // each kill and the SIGTERM interrupted at least one running job
    expect(total).toBeGreaterThanOrEqual(4);
    expect(await rig.effects('interrupted-')).toEqual(ids.map((_, i) => ({ marker: `interrupted-${i}`, n: 1 })));
    // no process died by itself
    expect(rig.procs.filter((p) => p.child.exitCode !== null && p.child.signalCode === null && p.child.exitCode !== 0)).toEqual([]);
    console.log(`rolling restarts: ${JOBS} jobs done, ${total} interruptions, no attempt spent`);
  }, 300_000);

  it('a job fetched by a process that died before claiming it is delivered again', async () => {
    // as a kill -9 between pg-boss's fetch and the claim leaves it: the delivery 'active' for
    // minutes (until pg-boss's expiry) while the job is still queued
    const { db, sender } = rig;
    const { id } = await db.tx(async (q) => {
      const job = await sender.enqueue(q, 'system.noop', { marker: 'unclaimed' });
      await q.query(
        `UPDATE "${rig.env.JOBS_SCHEMA}".job SET state = 'active', started_on = now() - interval '1 minute'
          WHERE id = (SELECT boss_id FROM work_job WHERE id = $1)`,
        [job.id],
      );
      return job;
    });
    const done = await until(async () => (await rows([id])).rows[0], (j) => j.state === 'done', 60_000);
    expect(done).toMatchObject({ attempts: 1, interruptions: 0 });
    expect((await db.query(`SELECT 1 FROM work_job_effect WHERE marker = 'unclaimed'`)).rows).toHaveLength(1);
  });

  it('a job claimed by a live worker whose answer was lost is queued again by that worker', async () => {
    // as a cut connection leaves it when the claim committed but its answer never arrived: the
    // row 'running' under a worker that is alive (so no sweep takes it) and that does not run it
    const { db, sender } = rig;
    const live = rig.procs.find((p) => p.child.exitCode === null && p.child.signalCode === null && p !== rig.procs[0]) ?? (await worker());
    const workerId = await until(
      async () => (await db.query<{ id: string }>(`SELECT id FROM work_worker`)).rows.map((r) => r.id).find((id) => runsOn(live, id)),
      (id) => !!id,
      30_000,
    );
    const { id } = await db.tx(async (q) => {
      const job = await sender.enqueue(q, 'system.noop', { marker: 'answer-lost' });
      await q.query(`UPDATE "${rig.env.JOBS_SCHEMA}".job SET state = 'active', started_on = now() WHERE id = (SELECT boss_id FROM work_job WHERE id = $1)`, [job.id]);
      // claimed (one attempt counted) 31 s ago, as the claim statement writes it
      await q.query(
        `UPDATE work_job SET state = 'running', worker_id = $2, attempts = 1, started_at = now() - interval '31 s', updated_at = now() - interval '31 s' WHERE id = $1`,
        [job.id, workerId],
      );
      return job;
    });
    const done = await until(async () => (await rows([id])).rows[0], (j) => j.state === 'done', 60_000);
    expect(done).toMatchObject({ attempts: 1, interruptions: 1 });
    expect(live.child.exitCode).toBeNull();
    expect((await db.query(`SELECT 1 FROM work_job_effect WHERE marker = 'answer-lost'`)).rows).toHaveLength(1);
  });
});
