/**
 * Call campaigns on the work engine (issue 10; docs/modules/voice.md "Campaigns").
 *
 * The ticker `voice.campaign` (every 2 s, once across all instances, the engine's clock):
 *  1. applies the time rules to call tasks (task-status.ts `tick`: scheduled start, pause at the
 *     latest call time, resume the next day at the window start), each with an audit row;
 *  2. asks the provider how a placed call stands when its status callback has not come within a
 *     minute (Twilio's `GET …/Calls/{Sid}.json`; again every minute while the call goes on), and
 *     closes attempts that never got an outcome (a dialer that died, a provider that cannot say);
 *  3. finishes tasks whose numbers are all done;
 *  4. for each running task inside its call window with a number due, claims the task's lease
 *     (`lease_until`, one campaign job per task at a time) and enqueues a `voice.campaign` job in
 *     the same transaction.
 *
 * The job (campaign-job.ts) places the calls; an attempt's outcome and its number's next step
 * are attempts.ts.
 */
import type { Db, Queryable } from '../../../db/db.js';
import type { Enqueue, Ticker } from '../../../jobs/types.js';
import { type AuditActor, writeAudit } from '../../../auth/audit.js';
import { inWindow, tick, type TaskState, type TaskStatus } from '../task-status.js';
import { closeStaleAttempts, finishIfDone, reconcileAttempts, SYSTEM_ACTOR } from './attempts.js';
import { CAMPAIGN_KIND, LEASE_SECONDS } from './campaign-job.js';
import { telephonyConfig } from './config.js';

const iso = (d: Date) => d.toISOString();

interface TaskRow {
  id: number;
  name: string;
  status: TaskStatus;
  mode: TaskState['mode'];
  start_at: string | Date | null;
  latest_call_time: string;
  window_start: string;
  pause_reason: TaskState['pause_reason'];
  resume_at: string | Date | null;
  time_zone: string;
}

const toState = (r: TaskRow): TaskState => ({
  status: r.status,
  mode: r.mode,
  start_at: r.start_at,
  latest_call_time: String(r.latest_call_time),
  window_start: String(r.window_start ?? '09:00'),
  pause_reason: r.pause_reason ?? null,
  resume_at: r.resume_at,
});

const sameTime = (a: unknown, b: unknown) => (a ? new Date(a as string).getTime() : null) === (b ? new Date(b as string).getTime() : null);

/**
 * Applies the automatic status change due at `now` to one task (audit auto_start /
 * auto_pause / auto_resume). Returns the new status, or null when nothing changed.
 */
async function applyTimeRule(q: Queryable, row: TaskRow, now: Date, actor: AuditActor = SYSTEM_ACTOR): Promise<TaskStatus | null> {
  const change = tick(toState(row), now, row.time_zone || 'UTC');
  if (!change || (change.status === row.status && sameTime(change.resume_at, row.resume_at))) return null;
  const action = change.status === 'pausing' ? 'auto_pause' : row.status === 'pending' ? 'auto_start' : 'auto_resume';
  const r = await q.query(
    `UPDATE call_task SET status = $2, pause_reason = $3, resume_at = $4, updated_at = now()
      WHERE id = $1 AND status = $5 AND pause_reason IS NOT DISTINCT FROM $6 RETURNING id`,
    [row.id, change.status, change.pause_reason, change.resume_at, row.status, row.pause_reason ?? null],
  );
  if (!r.rows.length) return null;
  await writeAudit(q, actor, {
    action,
    resource: 'call_task',
    targetId: row.id,
    before: { status: row.status, pause_reason: row.pause_reason ?? null, resume_at: row.resume_at ?? null },
    after: { ...change, at: iso(now) },
  });
  return change.status;
}

const TASK_COLS = `t.id, t.name, t.status, t.mode, t.start_at, t.latest_call_time, t.window_start, t.pause_reason, t.resume_at, s.time_zone`;

/** The ticker's body. */
async function campaignTick({ db, now, enqueue, signal }: { db: Db; now(): Date; enqueue: Enqueue; signal?: AbortSignal }): Promise<void> {
  const at = now();
  const tasks = await db.query<TaskRow>(
    `SELECT ${TASK_COLS} FROM call_task t JOIN voice_scene s ON s.id = t.scene_id
      WHERE t.status = 'running' OR (t.status = 'pausing' AND t.pause_reason = 'overrun') OR (t.status = 'pending' AND t.mode = 'schedule')
      ORDER BY t.id`,
  );
  const running: TaskRow[] = [];
  for (const t of tasks.rows) {
    const to = await db.tx((q) => applyTimeRule(q, t, at));
    const status = to ?? t.status;
    if (status === 'running') running.push(t);
  }
  if (!telephonyConfig().problems.length) await reconcileAttempts(db, at, signal ?? new AbortController().signal);
  await closeStaleAttempts(db, at);
  const open = await db.query<{ id: number }>(
    `SELECT t.id FROM call_task t WHERE t.status IN ('running', 'pausing')
        AND EXISTS (SELECT 1 FROM call_target g WHERE g.task_id = t.id)
        AND NOT EXISTS (SELECT 1 FROM call_target g WHERE g.task_id = t.id AND g.state <> 'done')`,
  );
  for (const { id } of open.rows) await db.tx((q) => finishIfDone(q, Number(id), at));
  // a dialer that is not configured places nothing (GET call-center/dialer says why)
  if (telephonyConfig().problems.length) return;
  const ids = running.filter((t) => inWindow(toState(t), at, t.time_zone || 'UTC')).map((t) => t.id);
  if (!ids.length) return;
  await db.tx(async (q) => {
    const claimed = await q.query<{ id: number; name: string }>(
      `UPDATE call_task t SET lease_until = $2::timestamptz + make_interval(secs => $3), lease_job = NULL
        WHERE t.id = ANY($1::int[]) AND t.status = 'running' AND (t.lease_until IS NULL OR t.lease_until < $2::timestamptz)
          AND EXISTS (SELECT 1 FROM call_target g WHERE g.task_id = t.id AND g.state = 'waiting' AND (g.next_at IS NULL OR g.next_at <= $2::timestamptz))
        RETURNING t.id, t.name`,
      [ids, iso(at), LEASE_SECONDS],
    );
    for (const t of claimed.rows) {
      const job = await enqueue(q, CAMPAIGN_KIND, { taskId: Number(t.id) }, {
        ref: { type: 'call_task', id: Number(t.id) },
        // one round of dialling: the campaign goes on in later rounds, so a round that ends "done"
        // short of the total is not the campaign being done (the Jobs page draws it grey)
        title: `Call campaign "${t.name}", a round of dialling / 外呼任务「${t.name}」，一轮拨号`,
        createdBy: null,
      });
      await q.query(`UPDATE call_task SET lease_job = $2 WHERE id = $1`, [t.id, job.id]);
    }
  });
}

export const campaignTicker: Ticker = { name: 'voice.campaign', everySeconds: 2, run: campaignTick };

