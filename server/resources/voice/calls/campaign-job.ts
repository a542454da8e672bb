/**
 * The `voice.campaign` job (docs/modules/voice.md "Campaigns"): a round of dialling for one task
 * whose lease the ticker (campaign.ts) claimed. It places the calls that are due, up to the
 * task's concurrency cap (attempts still dialling count), through the dialer the environment
 * selects, and loops while there is work it can do now: it re-reads the task every round, so
 * pause and stop are honoured within a second or two. Each attempt is a call_log row written
 * (unique per number and attempt) before the dialer is asked, so a job that dies resumes
 * exactly: nothing is dialled twice.
 */
import type { Db } from '../../../db/db.js';
import { pause } from '../../../jobs/clock.js';
import { PermanentJobError, type JobKind } from '../../../jobs/types.js';
import { inWindow, type TaskStatus } from '../task-status.js';
import { settleAttempt } from './attempts.js';
import { telephonyConfig } from './config.js';
import { dialerFor, type DialRequest, type DialResult, type Dialer } from './dialer.js';

export const CAMPAIGN_KIND = 'voice.campaign';
/** how long a claimed task is the job's (renewed every round) */
export const LEASE_SECONDS = 30;
/** a job waiting for a free line gives the task back after this long (the ticker claims it again) */
const SLICE_MS = 120_000;
const IDLE_POLL_MS = 1_000;

const iso = (d: Date) => d.toISOString();

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
