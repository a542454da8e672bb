/**
 * `lab.task-start` (every 2 s, once per slot across instances): starts the scheduled test,
 * rating and experiment tasks whose `scheduled_at` has come (compared with the engine clock's
 * `now()`; `scheduled_at` is an absolute timestamp — the task tables have no time zone of their
 * own) and enqueues their runs in the same transaction. It also gives a run to a running task
 * that never had one (tasks running from before runs were jobs, e.g. old demo data).
 */
import { writeAudit } from '../../auth/audit.js';
import type { Ticker } from '../../jobs/types.js';
import { RUN_AREAS, startRun } from './run-start.js';

const SYSTEM_ACTOR = { id: null, email: 'system', ip: '', userAgent: 'work engine' };

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
        const orphans = await q.query<{ id: number }>(`SELECT id FROM ${area.table} WHERE status = 'running' AND run_job_id IS NULL ORDER BY id LIMIT 50`);
        for (const { id } of orphans.rows) await startRun(q, enqueue, area, Number(id), null);
      });
    }
  },
};
