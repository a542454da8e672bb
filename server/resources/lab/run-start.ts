/**
 * Starting a task's run on the work engine (docs/modules/lab.md "Runs"). A task has at most one
 * live run job: `run_job_id` is the lease. Starting enqueues a job in the caller's transaction
 * (create, start / resume, the scheduled-start ticker) unless the job holding the lease is still
 * queued or running — then that job carries on (it sees the task running again).
 */
import type { Queryable } from '../../db/db.js';
import type { Enqueue } from '../../jobs/types.js';

export interface RunArea {
  /** the task table, also the work job's ref type */
  table: 'text_task' | 'text_rating_task' | 'lab_train_task';
  kind: string;
  label: string;
}

export const RUN_KIND = 'lab.task-run';
export const TRAIN_KIND = 'lab.train-run';

export const RUN_AREAS: Record<RunArea['table'], RunArea> = {
  text_task: { table: 'text_task', kind: RUN_KIND, label: 'test task / 测试任务' },
  text_rating_task: { table: 'text_rating_task', kind: RUN_KIND, label: 'rating task / 评分任务' },
  lab_train_task: { table: 'lab_train_task', kind: TRAIN_KIND, label: 'experiment task / 实验任务' },
};

export const isRunTable = (t: unknown): t is RunArea['table'] => typeof t === 'string' && t in RUN_AREAS;

/** SQL: the lease of `t` is held by a job that is still queued or running. */
export const LEASE_LIVE = `EXISTS (SELECT 1 FROM work_job j WHERE j.id = t.run_job_id AND j.state IN ('queued', 'running'))`;

export interface RunJobData {
  table: RunArea['table'];
  taskId: number;
}

export const runTitle = (a: RunArea, id: number, name: string): string => {
  const [en, zh] = a.label.split(' / ');
  return `Run ${en} #${id} "${name.slice(0, 60)}" / 运行${zh} #${id}`;
};

/**
 * Enqueues the run of a running task in `q` (the caller's transaction) and takes the lease for
 * it; does nothing when a live job already holds the lease. Returns the job id, or null.
 */
export async function startRun(
  q: Queryable,
  enqueue: Enqueue,
  area: RunArea,
  taskId: number,
  createdBy: number | null,
): Promise<number | null> {
  const r = await q.query<{ name: string; live: boolean }>(
    `SELECT t.name, ${LEASE_LIVE} AS live FROM ${area.table} t WHERE t.id = $1 AND t.status = 'running' FOR UPDATE`,
    [taskId],
  );
  const row = r.rows[0];
  if (!row || row.live) return null;
  const data: RunJobData = { table: area.table, taskId };
  const { id } = await enqueue(q, area.kind, data, { createdBy, ref: { type: area.table, id: taskId }, title: runTitle(area, taskId, row.name) });
  await q.query(`UPDATE ${area.table} SET run_job_id = $2, run_error = '' WHERE id = $1`, [taskId, id]);
  return id;
}
