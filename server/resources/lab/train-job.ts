/**
 * `lab.train-run`: the run of an experiment (training) task through its trainer (trainer.ts;
 * docs/modules/lab.md "Runs"). Starting, scheduling, pausing and stopping work as for test tasks
 * (the same lease, run-start.ts). The job takes the next remote step — upload the dataset,
 * create the fine-tuning job, then read the job and its events every TRAINER_POLL_MS — writing
 * status, progress and events to the task as the trainer reports them, until the remote job
 * succeeds (task finished), fails (task stopped, the reason in `run_error`) or is cancelled.
 * A trainer that does not answer is tried again with a growing wait (a note on the task), never
 * a failure of the task. The job works about a minute, then hands the lease to a continuation.
 * Pausing stops following (the remote job goes on; resuming follows it again). A stopped task's
 * remote job is cancelled: the stop route enqueues this kind for the stopped task, which sends
 * `POST /fine_tuning/jobs/{id}/cancel`.
 */
import { writeAudit } from '../../auth/audit.js';
import { TrainerError } from '../../ai/finetune/client.js';
import { databaseUnavailable } from '../../db/unavailable.js';
import { pause } from '../../jobs/clock.js';
import type { Db } from '../../db/db.js';
import { JobCancelled, JobInterrupted, PermanentJobError, type JobContext, type JobKind } from '../../jobs/types.js';
import { LEASE_LIVE, RUN_AREAS, TRAIN_KIND, runTitle, type RunJobData } from './run-start.js';
import { MAX_BACKOFF_MS, TASK_COLS, TrainFailure, advance, failureOf, isFinal, recordPoll, trainerFor, trainerPollMs, unreachableNote, type TrainTask } from './trainer.js';
import { cancelRemote } from './trainer-cancel.js';

export const NO_TRAINER =
  'no trainer is connected: mark a model server as able to fine-tune (configCenter → model servers) or pick one on the task; the task was paused / 未接入训练服务：请在模型服务中勾选“支持微调”或在任务中选择训练服务，任务已暂停';

/** how long one job follows before it hands over to a continuation (tests shorten it) */
export const TRAIN_SLICE = { ms: 60_000 };

const SYSTEM_ACTOR = { id: null, email: 'system', ip: '', userAgent: 'work engine' };

async function claim(db: Db, taskId: number, me: number): Promise<TrainTask | null> {
  const r = await db.query<TrainTask>(
    `UPDATE lab_train_task t SET run_job_id = $2
      WHERE t.id = $1 AND t.status = 'running' AND (t.run_job_id IS NULL OR t.run_job_id = $2 OR NOT ${LEASE_LIVE})
      RETURNING ${TASK_COLS}`,
    [taskId, me],
  );
  return r.rows[0] ?? null;
}

/** 'go' while the task runs under this job's lease; else the lease is let go (when still ours) and 'end'. */
async function mayGoOn(db: Db, taskId: number, me: number): Promise<'go' | 'end'> {
  const released = await db.query(`UPDATE lab_train_task SET run_job_id = NULL WHERE id = $1 AND run_job_id = $2 AND status <> 'running' RETURNING id`, [taskId, me]);
  if (released.rows.length) return 'end';
  const r = await db.query<{ status: string; run_job_id: string | number | null }>(`SELECT status, run_job_id FROM lab_train_task WHERE id = $1`, [taskId]);
  const row = r.rows[0];
  return row && row.status === 'running' && Number(row.run_job_id) === me ? 'go' : 'end';
}

/** Ends the task: finished (succeeded) or stopped (failed, cancelled, refused), in one transaction with its audit row. */
async function end(ctx: JobContext<RunJobData>, taskId: number, outcome: 'succeeded' | 'failed' | 'cancelled', reason = ''): Promise<boolean> {
  const status = outcome === 'succeeded' ? 'finished' : 'stopped';
  return ctx.db.tx(async (q) => {
    const r = await q.query(
      `UPDATE lab_train_task SET status = $3::varchar, train_status = $4::varchar, run_error = $5, finished_at = $6, run_job_id = NULL,
              progress = CASE WHEN $4::varchar = 'succeeded' THEN 100 ELSE progress END, updated_at = now()
        WHERE id = $1 AND status = 'running' AND run_job_id = $2 RETURNING id`,
      [taskId, ctx.job.id, status, outcome, reason.slice(0, 2000), ctx.now()],
    );
    if (r.rows.length) {
      await writeAudit(q, SYSTEM_ACTOR, { action: outcome === 'succeeded' ? 'finish' : 'stop', resource: 'lab_train_task', targetId: taskId, after: { status, train_status: outcome, job: ctx.job.id } });
    }
    return r.rows.length > 0;
  });
}

async function follow(ctx: JobContext<RunJobData>, task: TrainTask): Promise<unknown> {
  const { db } = ctx;
  const me = ctx.job.id;
  const trainer = await trainerFor(db, task, ctx.signal);
  if (!trainer) {
    await db.query(`UPDATE lab_train_task SET status = 'pausing', run_job_id = NULL, run_error = $3, updated_at = now() WHERE id = $1 AND run_job_id = $2`, [task.id, me, NO_TRAINER]);
    return { trained: false, paused: true, reason: NO_TRAINER };
  }
  const until = Date.now() + TRAIN_SLICE.ms;
  let failures = 0;
  let steps = 0;
  for (;;) {
    if ((await mayGoOn(db, task.id, me)) === 'end') return { steps, ended: 'paused, stopped or taken over / 已暂停、终止或转交' };
    let wait = trainerPollMs();
    try {
      const step = await advance(db, task, trainer, me);
      steps++;
      failures = 0;
      if (step.kind === 'polled') {
        const p = await recordPoll(db, task, me, step.job, step.events);
        if (p) await ctx.progress(p.step, p.total);
        if (isFinal(step.job.status)) {
          const reason = step.job.status === 'failed' ? failureOf(step.job) : step.job.status === 'cancelled' ? 'the trainer reports the job cancelled / 训练服务报告任务已取消' : '';
          return { steps, job: step.job.id, status: step.job.status, ended: await end(ctx, task.id, step.job.status, reason) };
        }
      } else wait = 0; // the next step at once
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      if (err instanceof TrainFailure) return { steps, failed: await end(ctx, task.id, 'failed', err.message) };
      if (!(err instanceof TrainerError)) throw err;
      if (err.kind === 'rejected' || (err.kind === 'missing' && task.remote_job_id)) {
        // the trainer refuses the request itself (bad model, bad file, no such job): waiting will not help
        const why = `the trainer refused: ${err.message} / 训练服务拒绝了请求`;
        return { steps, failed: await end(ctx, task.id, 'failed', why) };
      }
      // not reached, timed out, 5xx: try again, waiting longer each time
      failures++;
      wait = Math.min(MAX_BACKOFF_MS, trainerPollMs() * 2 ** Math.min(failures, 6));
      await db.query(`UPDATE lab_train_task SET trainer_note = $3 WHERE id = $1 AND run_job_id = $2`, [task.id, me, unreachableNote(err)]);
      ctx.log.warn('trainer call failed; retrying', { task: task.id, reason: err.message });
    }
    await ctx.checkpoint();
    if (Date.now() > until) return { steps, continued: await handOver(ctx, task) };
    if (wait) await pause(wait, ctx.signal);
    await ctx.checkpoint();
  }
}

async function run(ctx: JobContext<RunJobData>): Promise<unknown> {
  const { table, taskId } = ctx.job.data;
  if (table !== 'lab_train_task') throw new PermanentJobError(`not an experiment task table: ${String(table)}`);
  const me = ctx.job.id;
  const db = ctx.db;
  const task = await claim(db, taskId, me);
  if (!task) return cancelRemote(ctx, taskId);
  try {
    return await follow(ctx, task);
  } catch (err) {
    if (err instanceof JobCancelled || ctx.signal.reason instanceof JobCancelled) {
      // cancelled on the Jobs page: the task pauses (start follows the remote job again)
      await db.query(`UPDATE lab_train_task SET status = 'pausing', run_job_id = NULL, updated_at = now() WHERE id = $1 AND status = 'running' AND run_job_id = $2`, [taskId, me]);
    } else if (!ctx.signal.aborted && !(err instanceof JobInterrupted) && !databaseUnavailable(err)) {
      await db.query(`UPDATE lab_train_task SET run_error = $3 WHERE id = $1 AND run_job_id = $2`, [taskId, me, String((err as Error)?.message ?? err).slice(0, 2000)]);
    }
    throw err;
  }
}

/** Enqueues the next slice and hands it the lease (one transaction); its id. */
async function handOver(ctx: JobContext<RunJobData>, task: TrainTask): Promise<number | null> {
  const area = RUN_AREAS.lab_train_task;
  return ctx.db.tx(async (q) => {
    const r = await q.query(`SELECT 1 FROM lab_train_task WHERE id = $1 AND status = 'running' AND run_job_id = $2 FOR UPDATE`, [task.id, ctx.job.id]);
    if (!r.rows.length) return null;
    const { id } = await ctx.enqueue(q, area.kind, ctx.job.data, { createdBy: ctx.job.createdBy, ref: { type: area.table, id: task.id }, title: runTitle(area, task.id, task.name) });
    await q.query(`UPDATE lab_train_task SET run_job_id = $2 WHERE id = $1`, [task.id, id]);
    return id;
  });
}

export const trainRunKind: JobKind<RunJobData> = {
  kind: TRAIN_KIND,
  title: (d) => `Run experiment task #${d.taskId} / 运行实验任务 #${d.taskId}`,
  retryDelaySeconds: 5,
  maxAttempts: 5,
  timeoutSeconds: 30 * 60,
  run,
};
