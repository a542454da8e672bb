import type { Db } from '../db/db.js';
import type { Clock } from './clock.js';
import { JobCancelled, PermanentJobError, type Enqueue, type JobContext, type JobKind } from './types.js';

interface ClaimedRow {
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
  /** aborted when the process stops */
  shutdown: AbortSignal;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

/** What the pg-boss handler should do with its job after our run. */
export type RunOutcome = 'complete' | 'retry';

const errText = (err: unknown): string => String((err as Error)?.message ?? err).slice(0, 2000);

/**
 * Runs one delivery of a work job. The work_job row is the truth: a delivery whose boss id is
 * not the row's current one (a stale redelivery after recovery) or whose row is final does
 * nothing. Returns 'retry' only when pg-boss should deliver it again after its backoff.
 */
export async function runDelivery(deps: RunnerDeps, workJobId: number, bossId: string): Promise<RunOutcome> {
  const { db } = deps;
  const claimed = await db.query<ClaimedRow>(
    `UPDATE work_job SET state = 'running', attempts = attempts + 1, worker_id = $3,
            started_at = COALESCE(started_at, now()), updated_at = now()
      WHERE id = $1 AND boss_id = $2 AND NOT cancel_requested
        AND (state = 'queued' OR (state = 'running' AND (worker_id IS NULL OR worker_id NOT IN (SELECT id FROM work_worker))))
      RETURNING id, kind, data, attempts, max_attempts, created_by, ref_type, ref_id`,
    [workJobId, bossId, deps.workerId],
  );
  const row = claimed.rows[0];
  if (!row) {
    // cancelled before it started: make the row final
    await db.query(
      `UPDATE work_job SET state = 'cancelled', finished_at = now(), updated_at = now()
        WHERE id = $1 AND cancel_requested AND state IN ('queued', 'running')`,
      [workJobId],
    );
    return 'complete';
  }
  const kind = deps.kinds.get(row.kind);
  if (!kind) {
    await finish(db, row.id, 'failed', null, `unknown job kind "${row.kind}" / 未知的任务类型`);
    return 'complete';
  }
  const abort = new AbortController();
  const onShutdown = () => abort.abort(new Error('shutting down'));
  deps.shutdown.addEventListener('abort', onShutdown, { once: true });
  const checkpoint = async (done?: number, total?: number) => {
    const r = await db.query<{ cancel_requested: boolean }>(
      done === undefined
        ? `SELECT cancel_requested FROM work_job WHERE id = $1`
        : `UPDATE work_job SET progress_done = $2, progress_total = COALESCE($3, progress_total), updated_at = now()
            WHERE id = $1 RETURNING cancel_requested`,
      done === undefined ? [row.id] : [row.id, done, total ?? null],
    );
    if (r.rows[0]?.cancel_requested) {
      abort.abort(new JobCancelled());
      throw new JobCancelled();
    }
    if (deps.shutdown.aborted) throw new Error('shutting down');
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
    await finish(db, row.id, 'done', result ?? null, '');
    return 'complete';
  } catch (err) {
    if (err instanceof JobCancelled || abort.signal.reason instanceof JobCancelled) {
      await finish(db, row.id, 'cancelled', null, '');
      return 'complete';
    }
    if (deps.shutdown.aborted) {
      // left 'running' under this worker: the next start's recovery requeues it at once
      return 'complete';
    }
    const message = errText(err);
    deps.log.warn({ job: row.id, kind: row.kind, attempt: row.attempts, err: message }, 'job failed');
    if (err instanceof PermanentJobError || row.attempts >= row.max_attempts) {
      await finish(db, row.id, 'failed', null, message);
      return 'complete';
    }
    await db.query(`UPDATE work_job SET state = 'queued', last_error = $2, updated_at = now() WHERE id = $1 AND state = 'running'`, [
      row.id,
      message,
    ]);
    return 'retry';
  } finally {
    deps.shutdown.removeEventListener('abort', onShutdown);
  }
}

async function finish(db: Db, id: number, state: 'done' | 'failed' | 'cancelled', result: unknown, error: string): Promise<void> {
  await db.query(
    `UPDATE work_job SET state = $2, result = $3, last_error = CASE WHEN $4 = '' THEN last_error ELSE $4 END,
            finished_at = now(), updated_at = now()
      WHERE id = $1 AND state IN ('queued', 'running')`,
    [id, state, result === null ? null : JSON.stringify(result), error],
  );
}
