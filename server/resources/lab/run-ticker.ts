/**
 * `lab.task-start` (every 2 s, once per slot across instances): starts the scheduled test,
 * rating and experiment tasks whose `scheduled_at` has come (compared with the engine clock's
 * `now()`; `scheduled_at` is an absolute timestamp — the task tables have no time zone of their
 * own) and enqueues their runs in the same transaction. It also sees that no task is left
 * `running` without a live run job (issue 20): a task that never had one (tasks running from
 * before runs were jobs, e.g. old demo data) or whose job is gone or ended without finishing it
 * gets a new run; a task whose job failed (its attempts spent) or was cancelled on the Jobs page
 * is paused, with the job's error as its `run_error` (start resumes it).
 */
import { writeAudit } from '../../auth/audit.js';
import type { Ticker } from '../../jobs/types.js';
import { LEASE_LIVE, RUN_AREAS, startRun } from './run-start.js';

const SYSTEM_ACTOR = { id: null, email: 'system', ip: '', userAgent: 'work engine' };
const RUN_ENDED = 'the run stopped (its job failed or was cancelled); start the task to resume it / 运行已停止（任务执行失败或被取消），启动任务即可继续';

export const taskStartTicker: Ticker = {
  name: 'lab.task-start',
  everySeconds: 2,
  async run({ db, now, enqueue }) {
    const at = now();
    for (const area of Object.values(RUN_AREAS)) {
      await db.tx(async (q) => {
        const due = await q.query<{ id: number }>(
          `UPDATE ${area.table} SET status = 'running', started_at = COALESCE(started_at, $1), updated_at = now()
            WHERE status = 'pending' AND mode = 'schedule' AND scheduled_at <= $1
            RETURNING id`,
          [at],
        );
        for (const { id } of due.rows) {
          await writeAudit(q, SYSTEM_ACTOR, { action: 'start', resource: area.table, targetId: id, after: { status: 'running', scheduled: true } });
        }
        const stalled = await q.query<{ id: number; name: string }>(
          `UPDATE ${area.table} t SET status = 'pausing', run_job_id = NULL, updated_at = now(),
                  run_error = left(coalesce(nullif((SELECT j.last_error FROM work_job j WHERE j.id = t.run_job_id), ''), $1), 2000)
            WHERE t.status = 'running' AND t.run_job_id IS NOT NULL
              AND EXISTS (SELECT 1 FROM work_job j WHERE j.id = t.run_job_id AND j.state IN ('failed', 'cancelled'))
            RETURNING t.id`,
          [RUN_ENDED],
        );
        for (const { id } of stalled.rows) {
          await writeAudit(q, SYSTEM_ACTOR, { action: 'pause', resource: area.table, targetId: id, after: { status: 'pausing', reason: 'run job failed or cancelled' } });
        }
        const orphans = await q.query<{ id: number }>(`SELECT t.id FROM ${area.table} t WHERE t.status = 'running' AND NOT ${LEASE_LIVE} ORDER BY t.id LIMIT 50`);
        for (const { id } of orphans.rows) await startRun(q, enqueue, area, Number(id), null);
      });
    }
  },
};
