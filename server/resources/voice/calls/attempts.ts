/**
 * The attempts of the call campaigns (docs/modules/voice.md "Campaigns"): an attempt is a
 * call_log row; it ends with its result (the dialer's answer, the provider's status callback,
 * the provider asked when no callback came, or a cut-off when none can come any more) and moves
 * its number (call_target) on — done, or due again for a redial — and the task finishes when
 * every number is done.
 */
import { writeAudit, type AuditActor } from '../../../auth/audit.js';
import type { Db, Queryable } from '../../../db/db.js';
import type { CallResult, Dialer } from './dialer-types.js';
import { dialerFor } from './dialer.js';

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
export async function closeStaleAttempts(db: Db, now: Date): Promise<void> {
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
export async function reconcileAttempts(db: Db, now: Date, signal: AbortSignal): Promise<void> {
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

