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
 * The job places the calls that are due, up to the task's concurrency cap (attempts still
 * dialling count), through the dialer the environment selects, and loops while there is work
 * it can do now: it re-reads the task every round, so pause and stop are honoured within a
 * second or two. Each attempt is a call_log row written (unique per number and attempt) before
 * the dialer is asked; each number's progress is its call_target row. So a job that dies resumes
 * exactly: nothing is dialled twice.
 */
import { writeAudit, type AuditActor } from '../../../auth/audit.js';
import type { Db, Queryable } from '../../../db/db.js';
import { pause } from '../../../jobs/clock.js';
import { PermanentJobError, type Enqueue, type JobKind, type Ticker } from '../../../jobs/types.js';
import { inWindow, tick, type TaskState, type TaskStatus } from '../task-status.js';
import { telephonyConfig } from './config.js';
import { dialerFor, type CallResult, type DialRequest, type DialResult, type Dialer } from './dialer.js';

export const CAMPAIGN_KIND = 'voice.campaign';
const LEASE_SECONDS = 30;
/** a job waiting for a free line gives the task back after this long (the ticker claims it again) */
const SLICE_MS = 120_000;
const IDLE_POLL_MS = 1_000;
/** an attempt written but never handed to a provider (the process died in between) */
const UNPLACED_STALE_MINUTES = 5;
/** a placed call whose status never came */
const PLACED_STALE_MINUTES = 240;
/** a placed call without a status callback this long after it was placed is asked of the provider … */
const RECONCILE_AFTER_SECONDS = 60;
/** … and asked again this long after the last answer while the call goes on */
const RECHECK_SECONDS = 60;
/** an outcome ("english / 中文") marked as learnt by asking the provider */
const reconciled = (outcome: string): string => {
  const [en, zh = en] = outcome.split(' / ');
  return `${en} (no status callback came: asked of the provider) / ${zh}（未收到回调，已向运营商查询）`;
};

export const SYSTEM_ACTOR: AuditActor = { id: null, email: 'system', ip: '', userAgent: 'work engine (voice.campaign)' };

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
export async function applyTimeRule(q: Queryable, row: TaskRow, now: Date, actor: AuditActor = SYSTEM_ACTOR): Promise<TaskStatus | null> {
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

/** One task with what the time rules need. */
export async function taskForRules(q: Queryable, id: number): Promise<TaskRow | undefined> {
  const r = await q.query<TaskRow>(`SELECT ${TASK_COLS} FROM call_task t JOIN voice_scene s ON s.id = t.scene_id WHERE t.id = $1`, [id]);
  return r.rows[0];
}

/** Finishes the task when it has numbers and every one is done (audit auto_finish). */
export async function finishIfDone(q: Queryable, taskId: number, now: Date): Promise<boolean> {
  const r = await q.query<{ status: string }>(
    `UPDATE call_task t SET status = 'finished', finished_at = $2, pause_reason = NULL, resume_at = NULL,
            lease_until = NULL, lease_job = NULL, updated_at = now()
      WHERE t.id = $1 AND t.status IN ('running', 'pausing')
        AND EXISTS (SELECT 1 FROM call_target g WHERE g.task_id = t.id)
        AND NOT EXISTS (SELECT 1 FROM call_target g WHERE g.task_id = t.id AND g.state <> 'done')
      RETURNING id`,
    [taskId, iso(now)],
  );
  if (!r.rows.length) return false;
  const counts = await q.query<{ outcome: string; n: number }>(
    `SELECT coalesce(outcome, '') AS outcome, count(*)::int AS n FROM call_target WHERE task_id = $1 GROUP BY 1`,
    [taskId],
  );
  await writeAudit(q, SYSTEM_ACTOR, {
    action: 'auto_finish',
    resource: 'call_task',
    targetId: taskId,
    after: { status: 'finished', at: iso(now), numbers: Object.fromEntries(counts.rows.map((c) => [c.outcome, c.n])) },
  });
  return true;
}

export interface Settlement {
  result: CallResult;
  outcome: string;
  durationSeconds?: number;
  providerStatus?: string;
  request?: unknown;
}

/**
 * Ends an open attempt with its result and moves its number on: done when connected (1) or
 * failed on sensitive words (3, not redialled), or when the scene's redials are used up
 * (1 + redial_times attempts); otherwise due again `redial_interval_minutes` after `now`.
 * Idempotent: an attempt already ended is left alone (returns false).
 */
export async function settleAttempt(q: Queryable, attemptId: number, s: Settlement, now: Date): Promise<boolean> {
  const r = await q.query<{ task_id: number | null; target_id: number | null }>(
    `UPDATE call_log SET result = $2, outcome = $3, status = 'ended', duration_seconds = coalesce($4, duration_seconds),
            provider_status = coalesce($5, provider_status), request = coalesce($6::jsonb, request), ended_at = $7
      WHERE id = $1 AND status = 'dialling' RETURNING task_id, target_id`,
    [attemptId, s.result, s.outcome, s.durationSeconds ?? null, s.providerStatus ?? null, s.request === undefined ? null : JSON.stringify(s.request), iso(now)],
  );
  const row = r.rows[0];
  if (!row) return false;
  if (row.target_id !== null) {
    await q.query(
      `UPDATE call_target g SET
              state = CASE WHEN $2 IN (1, 3) OR g.attempts >= 1 + s.redial_times THEN 'done' ELSE 'waiting' END,
              outcome = CASE WHEN $2 = 1 THEN 'connected' WHEN $2 = 3 THEN 'failed' WHEN g.attempts >= 1 + s.redial_times THEN 'exhausted' END,
              next_at = CASE WHEN $2 IN (1, 3) OR g.attempts >= 1 + s.redial_times THEN NULL
                             ELSE $3::timestamptz + make_interval(mins => s.redial_interval_minutes) END,
              result = $2
         FROM call_task t JOIN voice_scene s ON s.id = t.scene_id
        WHERE g.id = $1 AND t.id = g.task_id AND g.state = 'calling'`,
      [row.target_id, s.result, iso(now)],
    );
  }
  if (row.task_id !== null) await finishIfDone(q, row.task_id, now);
  return true;
}

/** Closes attempts that will get no outcome any more (see the constants above). */
async function closeStaleAttempts(db: Db, now: Date): Promise<void> {
  const stale = await db.query<{ id: number; placed: boolean }>(
    `SELECT id, provider_call_id IS NOT NULL AS placed FROM call_log
      WHERE status = 'dialling'
        AND ((provider_call_id IS NULL AND called_at < $1::timestamptz - make_interval(mins => $2))
          OR called_at < $1::timestamptz - make_interval(mins => $3))
      LIMIT 200`,
    [iso(now), UNPLACED_STALE_MINUTES, PLACED_STALE_MINUTES],
  );
  for (const a of stale.rows) {
    const s: Settlement = a.placed
      ? { result: 4, outcome: 'no call status received in time / 超时未收到通话结果' }
      : { result: 2, outcome: 'not placed: the campaign stopped before the dialer answered / 未拨出（拨号进程中断）' };
    await db.tx((q) => settleAttempt(q, Number(a.id), s, now));
  }
}

/**
 * Placed calls whose status callback has not come (lost: the instance it was posted to was down,
 * a network fault) are asked of the provider, so no line is held longer than the provider takes
 * to report. Each attempt is claimed (`status_checked_at`) before it is asked, once per
 * RECHECK_SECONDS across instances.
 */
async function reconcileAttempts(db: Db, now: Date, signal: AbortSignal): Promise<void> {
  const dialer = dialerFor();
  if (!dialer.status) return;
  const due = await db.query<{ id: number; provider_call_id: string }>(
    `UPDATE call_log SET status_checked_at = $1::timestamptz
      WHERE id IN (SELECT id FROM call_log
                    WHERE status = 'dialling' AND dialer = $2 AND provider_call_id IS NOT NULL
                      AND called_at < $1::timestamptz - make_interval(secs => $3)
                      AND (status_checked_at IS NULL OR status_checked_at < $1::timestamptz - make_interval(secs => $4))
                    ORDER BY called_at LIMIT 20)
      RETURNING id, provider_call_id`,
    [iso(now), dialer.name, RECONCILE_AFTER_SECONDS, RECHECK_SECONDS],
  );
  for (const a of due.rows) {
    if (signal.aborted) return;
    let st: Awaited<ReturnType<NonNullable<Dialer['status']>>>;
    try {
      st = await dialer.status(a.provider_call_id, signal);
    } catch {
      continue; // asked again after RECHECK_SECONDS; the 4-hour cut-off still ends it
    }
    if (!st.final) {
      await db.query(`UPDATE call_log SET provider_status = $2 WHERE id = $1 AND status = 'dialling'`, [a.id, st.providerStatus]);
      continue;
    }
    const s: Settlement = {
      result: st.final.result,
      outcome: reconciled(st.final.outcome),
      providerStatus: st.providerStatus,
      durationSeconds: st.durationSeconds,
    };
    await db.tx((q) => settleAttempt(q, Number(a.id), s, now));
  }
}

/** The ticker's body (exported for tests that drive it by hand). */
export async function campaignTick({ db, now, enqueue, signal }: { db: Db; now(): Date; enqueue: Enqueue; signal?: AbortSignal }): Promise<void> {
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

interface LeasedTask {
  status: TaskStatus;
  window_start: string;
  latest_call_time: string;
  concurrency: number;
  number_ids: number[];
  scene_id: number;
  time_zone: string;
  prologue: string;
  silent_seconds: number;
  silent_times: number;
  voice_provider: string;
  voice: string | null;
}

interface Reserved {
  attemptId: number;
  attempt: number;
  to: string;
  customerName: string;
  from: string;
  fromProvider: string;
}

/** Writes the due attempts (up to the free lines) as dialling call_log rows; the task row lock serialises it. */
async function reserve(db: Db, taskId: number, jobId: number, task: LeasedTask, now: Date, dialer: Dialer): Promise<Reserved[]> {
  return db.tx(async (q) => {
    const own = await q.query(`SELECT id FROM call_task WHERE id = $1 AND lease_job = $2 AND status = 'running' FOR UPDATE`, [taskId, jobId]);
    if (!own.rows.length) return [];
    const open = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM call_log WHERE task_id = $1 AND status = 'dialling'`, [taskId]);
    const free = task.concurrency - Number(open.rows[0].n);
    if (free <= 0) return [];
    const due = await q.query<{ id: number; phone: string; customer_name: string; attempts: number }>(
      `SELECT id, phone, customer_name, attempts FROM call_target
        WHERE task_id = $1 AND state = 'waiting' AND (next_at IS NULL OR next_at <= $2::timestamptz)
        ORDER BY next_at NULLS FIRST, id LIMIT $3 FOR UPDATE`,
      [taskId, iso(now), free],
    );
    if (!due.rows.length) return [];
    const lines = await q.query<{ phone: string; provider: string }>(
      `SELECT phone, provider FROM call_number WHERE id = ANY($1::int[]) AND status = 1 ORDER BY id`,
      [task.number_ids],
    );
    const out: Reserved[] = [];
    for (const g of due.rows) {
      const attempt = Number(g.attempts) + 1;
      const line = lines.rows.length ? lines.rows[(Number(g.id) + attempt) % lines.rows.length] : { phone: '', provider: '' };
      await q.query(`UPDATE call_target SET state = 'calling', attempts = $2, last_called_at = $3 WHERE id = $1`, [g.id, attempt, iso(now)]);
      const log = await q.query<{ id: number }>(
        `INSERT INTO call_log (task_id, target_id, attempt, caller_number, callee_number, customer_name, result, status, dialer, dry_run, outcome, called_at)
         VALUES ($1, $2, $3, $4, $5, $6, NULL, 'dialling', $7, $8, 'dialling / 拨号中', $9)
         ON CONFLICT (target_id, attempt) DO NOTHING RETURNING id`,
        [taskId, g.id, attempt, line.phone, g.phone, g.customer_name, dialer.name, dialer.dryRun, iso(now)],
      );
      if (log.rows[0]) {
        out.push({ attemptId: Number(log.rows[0].id), attempt, to: g.phone, customerName: g.customer_name, from: line.phone, fromProvider: line.provider });
      }
    }
    return out;
  });
}

async function recordDial(db: Db, attemptId: number, res: DialResult, now: Date): Promise<void> {
  if (res.kind === 'ended') {
    await db.tx((q) =>
      settleAttempt(q, attemptId, { result: res.result, outcome: res.outcome, durationSeconds: res.durationSeconds, providerStatus: res.providerStatus, request: res.request }, now),
    );
    return;
  }
  await db.query(
    `UPDATE call_log SET provider_call_id = $2, provider_status = $3, outcome = $4, request = $5::jsonb WHERE id = $1 AND status = 'dialling'`,
    [attemptId, res.providerCallId, res.providerStatus, res.outcome, res.request === undefined ? null : JSON.stringify(res.request)],
  );
}

const release = (db: Db, taskId: number, jobId: number) =>
  db.query(`UPDATE call_task SET lease_until = NULL, lease_job = NULL WHERE id = $1 AND lease_job = $2`, [taskId, jobId]);

export const campaignKind: JobKind<{ taskId: number }> = {
  kind: CAMPAIGN_KIND,
  title: (d) => `Call campaign #${d.taskId}, a round of dialling / 外呼任务 #${d.taskId}，一轮拨号`,
  maxAttempts: 2,
  retryDelaySeconds: 2,
  timeoutSeconds: 600,
  async run(ctx) {
    const taskId = Number(ctx.job.data.taskId);
    const jobId = ctx.job.id;
    const began = Date.now();
    let placed = 0;
    for (;;) {
      await ctx.checkpoint();
      const now = ctx.now();
      // renew the lease; a job that lost it (another took over after a long stall) stops
      const r = await ctx.db.query<LeasedTask>(
        `UPDATE call_task t SET lease_until = $3::timestamptz + make_interval(secs => $4)
           FROM voice_scene s
          WHERE t.id = $1 AND t.lease_job = $2 AND s.id = t.scene_id
          RETURNING t.status, t.window_start, t.latest_call_time, t.concurrency, t.number_ids, t.scene_id, s.time_zone,
                    s.prologue, s.silent_seconds, s.silent_times, s.voice_provider,
                    (SELECT v.identifier FROM voice_sound v WHERE v.id = s.sound_id) AS voice`,
        [taskId, jobId, iso(now), LEASE_SECONDS],
      );
      const task = r.rows[0];
      if (!task) return { placed, stopped: 'the task is worked by another job or gone' };
      if (task.status !== 'running') {
        await release(ctx.db, taskId, jobId);
        return { placed, stopped: `task ${task.status}` };
      }
      if (!inWindow({ window_start: String(task.window_start), latest_call_time: String(task.latest_call_time) }, now, task.time_zone || 'UTC')) {
        await release(ctx.db, taskId, jobId);
        return { placed, stopped: 'outside the call window' };
      }
      const cfg = telephonyConfig();
      if (cfg.problems.length) {
        await release(ctx.db, taskId, jobId);
        throw new PermanentJobError(cfg.problems.join('; '));
      }
      const dialer = dialerFor(cfg);
      const batch = await reserve(ctx.db, taskId, jobId, task, now, dialer);
      for (const a of batch) {
        const req: DialRequest = {
          attemptId: a.attemptId,
          taskId,
          to: a.to,
          from: a.from,
          fromProvider: a.fromProvider,
          customerName: a.customerName,
          attempt: a.attempt,
          scene: {
            id: Number(task.scene_id),
            prologue: task.prologue,
            silentSeconds: Number(task.silent_seconds),
            silentTimes: Number(task.silent_times),
            voiceProvider: task.voice_provider,
            voice: task.voice ?? '',
            timeZone: task.time_zone,
          },
        };
        const res = await dialer.dial(req, ctx.signal);
        await recordDial(ctx.db, a.attemptId, res, ctx.now());
        placed += 1;
      }
      const p = await ctx.db.query<{ total: number; done: number; due: number; open: number; status: string }>(
        `SELECT (SELECT count(*)::int FROM call_target WHERE task_id = $1) AS total,
                (SELECT count(*)::int FROM call_target WHERE task_id = $1 AND state = 'done') AS done,
                (SELECT count(*)::int FROM call_target WHERE task_id = $1 AND state = 'waiting' AND (next_at IS NULL OR next_at <= $2::timestamptz)) AS due,
                (SELECT count(*)::int FROM call_log WHERE task_id = $1 AND status = 'dialling') AS open,
                (SELECT status FROM call_task WHERE id = $1) AS status`,
        [taskId, iso(ctx.now())],
      );
      const s = p.rows[0];
      await ctx.progress(Number(s.done), Number(s.total));
      if (s.status === 'finished') return { placed, finished: true };
      if (batch.length) continue;
      // nothing placed this round: wait for a line only while a number is due; else the ticker
      // comes back when a redial is due or a callback frees the task
      if (!Number(s.due) || Date.now() - began > SLICE_MS) {
        await release(ctx.db, taskId, jobId);
        return { placed, idle: true, waitingForStatus: Number(s.open) };
      }
      await pause(IDLE_POLL_MS, ctx.signal);
    }
  },
};
