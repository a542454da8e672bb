/**
 * Liveness of the work engine's workers (docs/operations.md "Faults"): each worker process keeps a
 * `work_worker` row fresh (a heartbeat); a worker that has reached the database without a break
 * for SWEEP_AFTER_MS removes rows not seen for STALE_SECONDS; jobs left `running` by a worker that
 * has no row are queued again as interrupted (the attempt they were on is given back), and
 * deliveries fetched long ago but never claimed get a new one.
 */
import os from 'node:os';
import type { Queryable } from '../db/db.js';
import type { SqlDb } from '../db/sql-db.js';
import { WORK_QUEUE } from './boss.js';
import type { JobKind } from './types.js';

export const HEARTBEAT_MS = 5_000;
/** a worker not seen for this long is gone; its running jobs are retried */
export const STALE_SECONDS = 15;
/**
 * A worker judges others gone only after it has reached the database without a break for this
 * long: after an outage every live worker has had two heartbeats to re-register before anyone
 * sweeps, so a worker whose heartbeat was merely blocked is never taken for dead.
 */
export const SWEEP_AFTER_MS = STALE_SECONDS * 1000 + 2 * HEARTBEAT_MS;
/** a delivery fetched this long ago whose job is still queued was fetched by a process that died before claiming it */
const UNCLAIMED_SECONDS = 30;
/** a job interrupted this often (crashes, kills, outages) fails: something in it may kill its process */
export const MAX_INTERRUPTIONS = 20;
export const INTERRUPTED = 'interrupted (process stopped, crashed or lost the database); not counted as an attempt / 执行中断（进程停止、崩溃或数据库不可用），不计入尝试次数';
export const TOO_OFTEN = `interrupted ${MAX_INTERRUPTIONS} times; given up / 已中断 ${MAX_INTERRUPTIONS} 次，放弃执行`;

/** workers of engines running in this process (tests run several): never swept as a past incarnation */
export const workersHere = new Set<string>();

/** This worker's row, written again if it is gone (an upsert: a sweep or a restore may have removed it). */
export async function registerWorker(db: SqlDb, workerId: string): Promise<void> {
  await db.query(`INSERT INTO work_worker (id, host, pid) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET seen_at = now()`, [
    workerId,
    os.hostname(),
    process.pid,
  ]);
}

/**
 * Rows of earlier processes on this machine that are certainly gone: their pid is not alive, or
 * it is this process's own pid (a restart that got the same pid, as in a container). No wait.
 */
export async function sweepSameHost(db: SqlDb, workerId: string): Promise<void> {
  const rows = await db.query<{ id: string; pid: number }>(`SELECT id, pid FROM work_worker WHERE host = $1 AND id <> $2`, [os.hostname(), workerId]);
  const gone = rows.rows.filter((r) => !workersHere.has(r.id) && (Number(r.pid) === process.pid || !pidAlive(Number(r.pid)))).map((r) => r.id);
  if (gone.length) await db.query(`DELETE FROM work_worker WHERE id = ANY($1::text[])`, [gone]);
}

/** Removes the rows of workers not seen for STALE_SECONDS (only a worker with an unbroken view of the database calls it). */
export async function sweepStale(db: SqlDb, workerId: string): Promise<void> {
  await db.query(`DELETE FROM work_worker WHERE id <> $1 AND seen_at < now() - make_interval(secs => $2)`, [workerId, STALE_SECONDS]);
}

export interface RecoverDeps {
  db: SqlDb;
  /** pg-boss's job table (its deliveries), quoted */
  bossTable: string;
  kinds: ReadonlyMap<string, JobKind>;
  log: { info(obj: object, msg?: string): void };
  /** a new delivery of the job, in the caller's transaction */
  sendWork(q: Queryable, id: number, k: JobKind, maxAttempts: number): Promise<void>;
}


/**
 * Running jobs of workers that are gone (no row in work_worker: stopped, or judged gone by a
 * sweep) are queued again at once as interrupted: the attempt they were on is given back.
 * Queued jobs whose delivery was fetched long ago but never claimed (the process that fetched
 * it died in between: pg-boss would hold it 'active' until its expiry, minutes) get a new
 * delivery; the old one, if it ever comes, finds another boss id and does nothing.
 */
export async function recoverJobs(d: RecoverDeps): Promise<void> {
  const { db } = d;
  // `b.name` lets each queued row's delivery be found by pg-boss's primary key (name, id) in the
  // work queue's partition: without it, a backlog of queued rows read the partition once each
  const unclaimed = await db.query<{ id: number; kind: string; max_attempts: number; boss_id: string }>(
    `SELECT w.id, w.kind, w.max_attempts, w.boss_id FROM work_job w JOIN ${d.bossTable} b ON b.name = $2 AND b.id = w.boss_id
      WHERE w.state = 'queued' AND b.state = 'active' AND b.started_on < now() - make_interval(secs => $1) LIMIT 100`,
    [UNCLAIMED_SECONDS, WORK_QUEUE],
  );
  for (const j of unclaimed.rows) {
    const k = d.kinds.get(j.kind);
    if (!k) continue;
    await db.tx(async (q) => {
      const r = await q.query(`UPDATE work_job SET updated_at = now() WHERE id = $1 AND state = 'queued' AND boss_id = $2 RETURNING id`, [j.id, j.boss_id]);
      if (r.rows.length) await d.sendWork(q, j.id, k, j.max_attempts);
    });
    d.log.info({ job: j.id, kind: j.kind }, 'unclaimed job delivered again');
  }
  const lost = await db.query<{ id: number; kind: string }>(
    `SELECT id, kind FROM work_job
      WHERE state = 'running' AND (worker_id IS NULL OR worker_id NOT IN (SELECT id FROM work_worker)) LIMIT 100`,
  );
  for (const j of lost.rows) {
    const k = d.kinds.get(j.kind);
    await db.tx(async (q) => {
      const r = await q.query<{ state: string; max_attempts: number }>(
        `UPDATE work_job SET state = CASE WHEN interruptions + 1 >= $3 OR $2 THEN 'failed' ELSE 'queued' END,
                attempts = greatest(attempts - 1, 0), interruptions = interruptions + 1, worker_id = NULL,
                last_error = CASE WHEN $2 THEN $6 WHEN interruptions + 1 >= $3 THEN $5 ELSE $4 END,
                finished_at = CASE WHEN interruptions + 1 >= $3 OR $2 THEN now() END, updated_at = now()
          WHERE id = $1 AND state = 'running' AND (worker_id IS NULL OR worker_id NOT IN (SELECT id FROM work_worker))
          RETURNING state, max_attempts`,
        [j.id, !k, MAX_INTERRUPTIONS, INTERRUPTED, TOO_OFTEN, `unknown job kind "${j.kind}" / 未知的任务类型`],
      );
      const row = r.rows[0];
      if (k && row?.state === 'queued') await d.sendWork(q, j.id, k, row.max_attempts);
    });
    d.log.info({ job: j.id, kind: j.kind }, 'lost job delivered again');
  }
}

/** a row 'running' under a live worker that its process does not run is given back after this long */
export const ORPHAN_SECONDS = 30;

/**
 * Rows 'running' under this worker and unchanged for ORPHAN_SECONDS: the candidates for the
 * worker's own check against what its process runs (engine.ts `reclaimOrphans`). A live worker's
 * row is never swept, so recovery above never takes these: without the check such a row would
 * stay 'running' until its delivery expires (minutes) or the process ends.
 */
export async function runningUnchanged(db: SqlDb, workerId: string): Promise<number[]> {
  const r = await db.query<{ id: number }>(
    `SELECT id FROM work_job WHERE state = 'running' AND worker_id = $1 AND updated_at < now() - make_interval(secs => $2) LIMIT 100`,
    [workerId, ORPHAN_SECONDS],
  );
  return r.rows.map((x) => Number(x.id));
}

function pidAlive(pid: number): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it lives, under another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
