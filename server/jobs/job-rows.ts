/**
 * The work engine's state changes of one work_job row that are not a run's own (runner.ts): the
 * hand-over of an interrupted job, a cancel request, a retry. Each is one fenced statement; a
 * job queued again gets a new delivery in the same transaction.
 */
import type { Queryable } from '../db/db.js';
import type { SqlDb } from '../db/sql-db.js';
import { INTERRUPTED, MAX_INTERRUPTIONS, TOO_OFTEN } from './liveness.js';
import type { JobKind } from './types.js';

export interface JobRowDeps {
  db: SqlDb;
  kinds: ReadonlyMap<string, JobKind>;
  /** a new delivery of the job, in the caller's transaction */
  sendWork(q: Queryable, id: number, k: JobKind, maxAttempts: number): Promise<void>;
}

/**
 * A job this worker was running was interrupted (SIGTERM, the database went away): queued
 * again under a new delivery at once, the attempt it was on given back and the interruption
 * counted (failed after MAX_INTERRUPTIONS). Only while it is still this worker's.
 */
export async function handOverJob(d: JobRowDeps, id: number, workerId: string): Promise<void> {
  await d.db.tx(async (q) => {
    const r = await q.query<{ state: string; kind: string; max_attempts: number }>(
      `UPDATE work_job SET state = CASE WHEN interruptions + 1 >= $3 THEN 'failed' ELSE 'queued' END,
              attempts = greatest(attempts - 1, 0), interruptions = interruptions + 1, worker_id = NULL,
              last_error = CASE WHEN interruptions + 1 >= $3 THEN $5 ELSE $4 END,
              finished_at = CASE WHEN interruptions + 1 >= $3 THEN now() END, updated_at = now()
        WHERE id = $1 AND state = 'running' AND worker_id = $2 RETURNING state, kind, max_attempts`,
      [id, workerId, MAX_INTERRUPTIONS, INTERRUPTED, TOO_OFTEN],
    );
    const row = r.rows[0];
    const k = row ? d.kinds.get(row.kind) : undefined;
    if (row?.state === 'queued' && k) await d.sendWork(q, id, k, row.max_attempts);
  });
}

/** Asks a job to stop: a queued one is cancelled at once, a running one at its next progress call. */
export async function requestCancel(q: Queryable, id: number): Promise<boolean> {
  const r = await q.query<{ state: string }>(
    `UPDATE work_job SET cancel_requested = true, updated_at = now(),
            state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END,
            finished_at = CASE WHEN state = 'queued' THEN now() ELSE finished_at END
      WHERE id = $1 AND state IN ('queued', 'running') RETURNING state`,
    [id],
  );
  return r.rows.length > 0;
}

/** Runs a failed or cancelled job again (a new delivery and a full round of attempts). */
export async function retryJob(d: JobRowDeps, q: Queryable, id: number): Promise<boolean> {
  const kind = (await q.query<{ kind: string }>(`SELECT kind FROM work_job WHERE id = $1`, [id])).rows[0]?.kind;
  const k = kind ? d.kinds.get(kind) : undefined;
  if (!k) return false;
  // attempts keep counting (the Jobs page shows every try); the job gets a full round more
  const r = await q.query<{ max_attempts: number }>(
    `UPDATE work_job SET state = 'queued', cancel_requested = false, finished_at = NULL, updated_at = now(),
            max_attempts = attempts + $2
      WHERE id = $1 AND state IN ('failed', 'cancelled') RETURNING max_attempts`,
    [id, k.maxAttempts ?? 3],
  );
  const row = r.rows[0];
  if (!row) return false;
  await d.sendWork(q, id, k, row.max_attempts);
  return true;
}
