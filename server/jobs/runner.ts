import type { Db } from '../db/db.js';
import { databaseUnavailable } from '../db/unavailable.js';
import { pause, type Clock } from './clock.js';
import { JobCancelled, JobInterrupted, PermanentJobError, type Enqueue, type JobContext, type JobKind } from './types.js';

export interface ClaimedRow {
  id: number;
  kind: string;
  data: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  created_by: number | null;
  ref_type: string | null;
  ref_id: number | null;
}

export interface RunnerDeps {
  db: Db;
  clock: Clock;
  kinds: ReadonlyMap<string, JobKind>;
  workerId: string;
  enqueue: Enqueue;
  /**
   * aborted when the process begins to stop (SIGTERM): a job ends at its next progress or
   * checkpoint call (the step it is in finishes) and is handed over
   */
  draining: AbortSignal;
  /** aborted when the grace period is over: the job's own signal fires (a call in flight is cut) */
  shutdown: AbortSignal;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /**
   * writes a job's final state together with its delivery's completion (batch.ts Finisher);
   * without it the final state is written alone and the engine completes the delivery after
   */
  finish?(id: number, bossId: string, state: 'done' | 'failed' | 'cancelled', result: string | null, error: string): Promise<void>;
}

/**
 * What the engine does with the delivery after our run: 'complete' it, 'retry' it after
 * pg-boss's backoff (a job failure with attempts left), or hand the job over as 'interrupted'
 * (the process is stopping or the database went away: not the job's fault, no attempt spent);
 * 'settled': the final state was written with the delivery's completion (deps.finish), nothing is left to do.
 */
export type RunOutcome = 'complete' | 'retry' | 'interrupted' | 'settled';

const errText = (err: unknown): string => String((err as Error)?.message ?? err).slice(0, 2000);

/** The job is no longer this worker's (another took it over after this one was judged gone). */
class JobLost extends Error {
  constructor() {
    super('the job was taken over by another worker / 任务已由其他进程接手');
  }
}

/** Does the database answer now? */
async function reachable(db: Db): Promise<boolean> {
  try {
    await db.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `write` until it succeeds while the database is unavailable (an outage, a cut
 * connection), waiting 0.5 s, then longer, up to 5 s between tries: an outcome that could not be
 * written is written when the database is back, so no job stays 'running' on a live process.
 * Gives up (throws) only when `stop` fires (the process ends: recovery takes over) or on an error
 * that is not the database being away.
 */
export async function persist<T>(write: () => Promise<T>, opts: { db: Db; stop: AbortSignal; log: RunnerDeps['log']; what: string }): Promise<T> {
  let wait = 500;
  let warned = false;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (opts.stop.aborted) throw err;
      if (!databaseUnavailable(err) && (await reachable(opts.db))) throw err;
      if (!warned) opts.log.warn({ err: errText(err) }, `${opts.what}: the database is unavailable, trying again until it is back`);
      warned = true;
      await pause(wait, opts.stop);
      wait = Math.min(wait * 2, 5_000);
    }
  }
}

/**
 * Runs one delivery of a work job. The work_job row is the truth: a delivery whose boss id is
 * not the row's current one (a stale redelivery after recovery) or whose row is final does
 * nothing; every write of a running job is fenced by `worker_id`, so a worker that was judged
 * gone (a partition) and comes back changes nothing of a job another worker took over.
 */
export async function runDelivery(deps: RunnerDeps, workJobId: number, bossId: string): Promise<RunOutcome> {
  const { db } = deps;
  const keep = { db, stop: deps.shutdown, log: deps.log };
  // a job 'running' under this worker with this delivery is ours already (the claim committed
  // but its answer was lost): taken again without counting; a job left 'running' by a worker that
  // is gone is taken over as an interruption (the attempt it was on is not spent)
  const claimed = await persist(
    () =>
      db.query<ClaimedRow>(
        `UPDATE work_job SET state = 'running', worker_id = $3,
                attempts = CASE WHEN state = 'queued' THEN attempts + 1 ELSE attempts END,
                interruptions = CASE WHEN state = 'running' AND worker_id IS DISTINCT FROM $3 THEN interruptions + 1 ELSE interruptions END,
                started_at = COALESCE(started_at, now()), updated_at = now()
          WHERE id = $1 AND boss_id = $2 AND NOT cancel_requested
            AND (state = 'queued' OR (state = 'running' AND (worker_id = $3 OR worker_id IS NULL OR worker_id NOT IN (SELECT id FROM work_worker))))
          RETURNING id, kind, data, attempts, max_attempts, created_by, ref_type, ref_id`,
        [workJobId, bossId, deps.workerId],
      ),
    { ...keep, what: 'job claim' },
  );
  const row = claimed.rows[0];
  if (!row) {
    // cancelled before it started: make the row final
    await persist(
      () =>
        db.query(
          `UPDATE work_job SET state = 'cancelled', finished_at = now(), updated_at = now()
            WHERE id = $1 AND cancel_requested AND state IN ('queued', 'running') AND (state = 'queued' OR worker_id IS NULL OR worker_id = $2 OR worker_id NOT IN (SELECT id FROM work_worker))`,
          [workJobId, deps.workerId],
        ),
      { ...keep, what: 'job cancel' },
    );
    return 'complete';
  }
  return runClaimed(deps, row, bossId);
}

/** Runs a job whose row this worker has claimed (runDelivery's claim, or batch.ts claimBatch). */
export async function runClaimed(deps: RunnerDeps, row: ClaimedRow, bossId: string): Promise<RunOutcome> {
  const { db } = deps;
  const keep = { db, stop: deps.shutdown, log: deps.log };
  const final = async (state: 'done' | 'failed' | 'cancelled', result: unknown, error: string): Promise<RunOutcome> => {
    const out = resultJson(result, error);
    if (deps.finish) {
      await deps.finish(row.id, bossId, state, out.json, out.error);
      return 'settled';
    }
    await persist(() => finish(db, row.id, deps.workerId, state, out.json, out.error), { ...keep, what: `job ${state}` });
    return 'complete';
  };
  const kind = deps.kinds.get(row.kind);
  if (!kind) {
    return final('failed', null, `unknown job kind "${row.kind}" / 未知的任务类型`);
  }
  const abort = new AbortController();
  const onShutdown = () => abort.abort(new JobInterrupted());
  deps.shutdown.addEventListener('abort', onShutdown, { once: true });
  const checkpoint = async (done?: number, total?: number) => {
    const r = await db.query<{ cancel_requested: boolean; mine: boolean }>(
      done === undefined
        ? `SELECT cancel_requested, (state = 'running' AND worker_id = $2) AS mine FROM work_job WHERE id = $1`
        : `UPDATE work_job SET progress_done = $3, progress_total = COALESCE($4, progress_total), updated_at = now()
            WHERE id = $1 AND state = 'running' AND worker_id = $2 RETURNING cancel_requested, true AS mine`,
      done === undefined ? [row.id, deps.workerId] : [row.id, deps.workerId, done, total ?? null],
    );
    if (!r.rows[0]?.mine) {
      abort.abort(new JobLost());
      throw new JobLost();
    }
    if (r.rows[0].cancel_requested) {
      abort.abort(new JobCancelled());
      throw new JobCancelled();
    }
    if (deps.draining.aborted) throw new JobInterrupted();
  };
  const ctx: JobContext = {
    job: {
      id: row.id,
      kind: row.kind,
      data: row.data,
      attempt: row.attempts,
      createdBy: row.created_by,
      ref: row.ref_type && row.ref_id !== null ? { type: row.ref_type, id: Number(row.ref_id) } : null,
    },
    db,
    now: () => deps.clock.now(),
    progress: (done, total) => checkpoint(done, total),
    checkpoint: () => checkpoint(),
    signal: abort.signal,
    enqueue: deps.enqueue,
    log: {
      info: (msg, extra) => deps.log.info({ job: row.id, kind: row.kind, ...extra }, msg),
      warn: (msg, extra) => deps.log.warn({ job: row.id, kind: row.kind, ...extra }, msg),
    },
  };
  try {
    const result = await kind.run(ctx);
    return await final('done', result ?? null, '');
  } catch (err) {
    if (err instanceof JobLost || abort.signal.reason instanceof JobLost) {
      deps.log.warn({ job: row.id, kind: row.kind }, 'job taken over by another worker: this run ends without writing');
      return 'complete';
    }
    if (err instanceof JobCancelled || abort.signal.reason instanceof JobCancelled) {
      return await final('cancelled', null, '');
    }
    // not the job's failure: the process is stopping, or the database went away under it
    if (err instanceof JobInterrupted || deps.draining.aborted || databaseUnavailable(err) || !(await reachable(db))) {
      deps.log.warn({ job: row.id, kind: row.kind, err: errText(err) }, 'job interrupted');
      return 'interrupted';
    }
    const message = errText(err);
    deps.log.warn({ job: row.id, kind: row.kind, attempt: row.attempts, err: message }, 'job failed');
    if (err instanceof PermanentJobError || row.attempts >= row.max_attempts) {
      return await final('failed', null, message);
    }
    await persist(
      () =>
        db.query(`UPDATE work_job SET state = 'queued', last_error = $3, updated_at = now() WHERE id = $1 AND state = 'running' AND worker_id = $2`, [
          row.id,
          deps.workerId,
          message,
        ]),
      { ...keep, what: 'job retry' },
    );
    return 'retry';
  } finally {
    deps.shutdown.removeEventListener('abort', onShutdown);
  }
}

/** A result as the jsonb text to store (null for none); one that cannot be stored becomes the error. */
function resultJson(result: unknown, error: string): { json: string | null; error: string } {
  try {
    return { json: result === null || result === undefined ? null : JSON.stringify(result), error };
  } catch (err) {
    return { json: null, error: `the job's result could not be stored: ${errText(err)} / 结果无法保存` };
  }
}

/** The job's final state, written only while it is still this worker's. */
async function finish(db: Db, id: number, workerId: string, state: 'done' | 'failed' | 'cancelled', json: string | null, error: string): Promise<void> {
  await db.query(
    `UPDATE work_job SET state = $3, result = $4, last_error = CASE WHEN $5 = '' THEN last_error ELSE $5 END,
            finished_at = now(), updated_at = now()
      WHERE id = $1 AND state = 'running' AND worker_id = $2`,
    [id, workerId, state, json, error],
  );
}
