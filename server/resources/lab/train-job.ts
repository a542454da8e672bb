/**
 * `lab.train-run`: the run of an experiment (training) task. Starting, scheduling, pausing and
 * stopping work as for test tasks (the same lease, run-start.ts), but this console has no
 * trainer to hand a fine-tuning job to: the run does not pretend to train. It pauses the task
 * and says why in `run_error`; progress is left as it is (docs/modules/lab.md "Runs").
 */
import { PermanentJobError, type JobContext, type JobKind } from '../../jobs/types.js';
import { LEASE_LIVE, TRAIN_KIND, type RunJobData } from './run-start.js';

export const NO_TRAINER = 'no trainer is connected to this console, so experiment tasks cannot train here; the task was paused / 本控制台未接入训练服务，实验任务无法训练，任务已暂停';

async function run(ctx: JobContext<RunJobData>): Promise<unknown> {
  const { table, taskId } = ctx.job.data;
  if (table !== 'lab_train_task') throw new PermanentJobError(`not an experiment task table: ${String(table)}`);
  const r = await ctx.db.query(
    `UPDATE lab_train_task t SET status = 'pausing', run_job_id = NULL, run_error = $3, updated_at = now()
      WHERE t.id = $1 AND t.status = 'running' AND (t.run_job_id IS NULL OR t.run_job_id = $2 OR NOT ${LEASE_LIVE})
      RETURNING id`,
    [taskId, ctx.job.id, NO_TRAINER],
  );
  return { trained: false, paused: r.rows.length > 0, reason: NO_TRAINER };
}

export const trainRunKind: JobKind<RunJobData> = {
  kind: TRAIN_KIND,
  title: (d) => `Run experiment task #${d.taskId} / 运行实验任务 #${d.taskId}`,
  run,
};
