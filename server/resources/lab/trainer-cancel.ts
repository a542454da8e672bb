/**
 * Cancelling the remote job of a stopped experiment task (`POST /fine_tuning/jobs/{id}/cancel`).
 * The stop route enqueues a `lab.train-run` job for the stopped task; the job finds it not
 * running and comes here. A create whose reply was lost is looked up first (its job may exist).
 * A trainer that does not answer fails the attempt and the engine tries again (5 attempts).
 */
import type { Enqueue } from '../../jobs/types.js';
import type { Queryable } from '../../db/db.js';
import type { JobContext } from '../../jobs/types.js';
import { TrainerError } from '../../ai/finetune/client.js';
import { RUN_AREAS, runTitle, type RunJobData } from './run-start.js';
import { TASK_COLS, isFinal, trainerFor, type TrainTask } from './trainer.js';

export async function cancelRemote(ctx: JobContext<RunJobData>, taskId: number): Promise<unknown> {
  const r = await ctx.db.query<TrainTask>(`SELECT ${TASK_COLS} FROM lab_train_task t WHERE t.id = $1`, [taskId]);
  const task = r.rows[0];
  if (!task || task.status !== 'stopped' || isFinal(task.train_status) || (!task.remote_job_id && !task.create_started_at)) {
    return { ran: 0, note: 'the task is not running, or another run holds it / 任务未在运行或已由其他执行占用' };
  }
  const trainer = await trainerFor(ctx.db, task, ctx.signal);
  if (!trainer) return { cancelled: false, note: 'the trainer server is gone / 训练服务已删除' };
  let jobId = task.remote_job_id;
  if (!jobId) {
    jobId = (await trainer.client.findJobs('console_run', task.remote_key))[0]?.id ?? '';
    if (!jobId) return { cancelled: false, note: 'no remote job was created / 未创建远程任务' };
    await ctx.db.query(`UPDATE lab_train_task SET remote_job_id = $2 WHERE id = $1 AND remote_job_id = ''`, [taskId, jobId]);
  }
  let status: string;
  try {
    status = (await trainer.client.cancelJob(jobId)).status;
  } catch (e) {
    // a job that ended meanwhile cannot be cancelled: read what it became
    if (!(e instanceof TrainerError) || e.kind !== 'rejected') throw e;
    status = (await trainer.client.getJob(jobId)).status;
  }
  await ctx.db.query(`UPDATE lab_train_task SET train_status = $2, trainer_contact_at = now(), updated_at = now() WHERE id = $1`, [taskId, status]);
  return { cancelled: status === 'cancelled', job: jobId, status };
}

/** After a stop: a job that cancels the task's remote job, when it has one that may still run. */
export async function enqueueCancel(q: Queryable, enqueue: Enqueue, taskId: number, createdBy: number | null): Promise<void> {
  const r = await q.query<{ name: string; train_status: string; remote_job_id: string; create_started_at: string | null }>(
    `SELECT name, train_status, remote_job_id, create_started_at FROM lab_train_task WHERE id = $1`,
    [taskId],
  );
  const t = r.rows[0];
  if (!t || isFinal(t.train_status) || (!t.remote_job_id && !t.create_started_at)) return;
  const area = RUN_AREAS.lab_train_task;
  const data: RunJobData = { table: area.table, taskId };
  await enqueue(q, area.kind, data, { createdBy, ref: { type: area.table, id: taskId }, title: cancelTitle(runTitle(area, taskId, t.name)) });
}

/** "Run … / 运行…" → "Cancel: Run … / 取消：运行…" (one language per half, server/http/lang.ts pickTitle) */
function cancelTitle(run: string): string {
  const at = run.lastIndexOf(' / ');
  return at < 0 ? `Cancel: ${run}` : `Cancel: ${run.slice(0, at)} / 取消：${run.slice(at + 3)}`;
}
