/**
 * The state machine of one send (a notice to one channel of one shop), in the database:
 *
 *   pending ──claim (lease)──► sending ──2xx / 250──► delivered
 *      ▲                          │
 *      └── not yet the last ◄─────┤ failure
 *          attempt: backoff       └── the last attempt ──► failed
 *
 * A claim is one transaction (FOR UPDATE SKIP LOCKED): the send becomes `sending` with a lease
 * (owner, lease_until in database time) and its attempt row is written, before anything is
 * sent. The result is written by the lease's owner only (same owner and attempt), so a worker
 * that comes back after its lease ran out cannot overwrite a later attempt. A send whose lease
 * ran out (its worker was killed) is claimed again as a new attempt; the attempt that was lost
 * is logged `lost`. The same idempotency key goes with every attempt (webhook-id /
 * Idempotency-Key / Message-ID), so a receiver that got the lost attempt recognises the retry.
 */
import type { Queryable } from '../db/db.js';
import type { Enqueue } from '../jobs/types.js';
import { backoffMs, type NotifySettings } from './settings.js';
import type { SendResult } from './types.js';

export const DELIVER_KIND = 'notification.deliver';

export interface ClaimedSend {
  id: number;
  notification_id: number;
  shop_id: number;
  channel: 'webhook' | 'email' | 'sandbox';
  channel_id: number | null;
  idempotency_key: string;
  attempts: number;
  max_attempts: number;
}

const LOST = 'the worker stopped during this attempt (crash or kill); sent again with the same idempotency key / 本次尝试中进程中断（崩溃或被终止），已以相同幂等键重发';
const LAST_LOST = 'the last attempt was lost with its worker / 最后一次尝试随进程中断而丢失';

/** Claims up to `limit` due sends of a notification for `owner`. */
export async function claimSends(db: { tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> }, notificationId: number, owner: string, now: Date, s: NotifySettings, limit: number): Promise<ClaimedSend[]> {
  return db.tx(async (q) => {
    // a lost last attempt: failed (it may have been received; the log says it was lost)
    const spent = await q.query<{ id: number }>(
      `UPDATE notification_send SET state = 'failed', lease_owner = NULL, lease_until = NULL, last_error = $2, updated_at = now()
        WHERE notification_id = $1 AND state = 'sending' AND lease_until < now() AND attempts >= max_attempts RETURNING id`,
      [notificationId, LAST_LOST],
    );
    if (spent.rows.length) {
      await q.query(`UPDATE notification_send_attempt SET outcome = 'lost', finished_at = now(), error = $2 WHERE send_id = ANY($1::bigint[]) AND outcome = 'sending'`, [
        spent.rows.map((r) => r.id),
        LOST,
      ]);
    }
    const rows = (
      await q.query<ClaimedSend>(
        `WITH due AS (
           SELECT id FROM notification_send
            WHERE notification_id = $1 AND attempts < max_attempts
              AND ((state = 'pending' AND next_attempt_at <= $2) OR (state = 'sending' AND lease_until < now()))
            ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         UPDATE notification_send s SET state = 'sending', attempts = s.attempts + 1, lease_owner = $4,
                lease_until = now() + make_interval(secs => $5), updated_at = now()
           FROM due WHERE s.id = due.id
         RETURNING s.id, s.notification_id, s.shop_id, s.channel, s.channel_id, s.idempotency_key, s.attempts, s.max_attempts`,
        [notificationId, now, limit, owner, s.leaseSeconds],
      )
    ).rows.map((r) => ({ ...r, id: Number(r.id) }));
    if (!rows.length) return rows;
    const ids = rows.map((r) => r.id);
    await q.query(`UPDATE notification_send_attempt SET outcome = 'lost', finished_at = now(), error = $2 WHERE send_id = ANY($1::bigint[]) AND outcome = 'sending'`, [ids, LOST]);
    await q.query(
      `INSERT INTO notification_send_attempt (send_id, attempt, worker) SELECT x.id, x.a, $3 FROM unnest($1::bigint[], $2::int[]) AS x(id, a)`,
      [ids, rows.map((r) => r.attempts), owner],
    );
    return rows;
  });
}

/** Writes an attempt's result (only while `owner` still holds the send at this attempt). */
export async function recordResult(db: { tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> }, send: ClaimedSend, owner: string, r: SendResult, now: Date, startedMs: number, s: NotifySettings): Promise<'delivered' | 'pending' | 'failed' | 'stale'> {
  const last = send.attempts >= send.max_attempts;
  const state = r.ok ? 'delivered' : last ? 'failed' : 'pending';
  const next = new Date(now.getTime() + (r.ok || last ? 0 : backoffMs(send.attempts + 1, s)));
  const error = (r.error ?? '').slice(0, 500);
  return db.tx(async (q) => {
    const u = await q.query(
      `UPDATE notification_send SET state = $4::varchar, last_status = $5::int, last_error = $6::varchar, next_attempt_at = $7::timestamptz,
              delivered_at = CASE WHEN $4::varchar = 'delivered' THEN now() ELSE delivered_at END,
              lease_owner = NULL, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND lease_owner = $2 AND attempts = $3 AND state = 'sending'`,
      [send.id, owner, send.attempts, state, r.status ?? null, error, next],
    );
    await q.query(
      `UPDATE notification_send_attempt SET outcome = $3::varchar, status_code = $4::int, error = $5::varchar, finished_at = now(), duration_ms = $6::int
        WHERE send_id = $1 AND attempt = $2`,
      [send.id, send.attempts, r.ok ? 'ok' : 'error', r.status ?? null, error, Math.max(0, Date.now() - startedMs)],
    );
    return u.affectedRows ? state : 'stale';
  });
}

/** Gives back claimed sends that were never started (the process is stopping): no attempt spent. */
export async function releaseSends(db: Queryable, sends: ClaimedSend[], owner: string): Promise<void> {
  if (!sends.length) return;
  const ids = sends.map((x) => x.id);
  await db.query(`DELETE FROM notification_send_attempt a USING notification_send s WHERE a.send_id = s.id AND s.id = ANY($1::bigint[]) AND s.lease_owner = $2 AND a.attempt = s.attempts AND a.outcome = 'sending'`, [ids, owner]);
  await db.query(
    `UPDATE notification_send SET state = 'pending', attempts = attempts - 1, lease_owner = NULL, lease_until = NULL, updated_at = now()
      WHERE id = ANY($1::bigint[]) AND lease_owner = $2 AND state = 'sending'`,
    [ids, owner],
  );
}

/** Queues a delivery job for the notification unless one is queued or running already. */
export async function ensureDeliverJob(q: Queryable, enqueue: Enqueue, notificationId: number, createdBy: number | null = null): Promise<boolean> {
  const live = await q.query(`SELECT 1 FROM work_job WHERE kind = $1 AND ref_type = 'notification' AND ref_id = $2 AND state IN ('queued', 'running') LIMIT 1`, [
    DELIVER_KIND,
    notificationId,
  ]);
  if (live.rows.length) return false;
  await enqueue(q, DELIVER_KIND, { notificationId }, {
    createdBy,
    ref: { type: 'notification', id: notificationId },
    title: `Deliver notification ${notificationId} / 投递通知 ${notificationId}`,
  });
  return true;
}

/** Notifications with a send due now (pending and due, or a lease that ran out). */
export async function dueNotifications(q: Queryable, now: Date, limit = 50): Promise<number[]> {
  const r = await q.query<{ id: number }>(
    `SELECT DISTINCT notification_id AS id FROM notification_send
      WHERE (state = 'pending' AND next_attempt_at <= $1) OR (state = 'sending' AND lease_until < now())
      LIMIT $2`,
    [now, limit],
  );
  return r.rows.map((x) => Number(x.id));
}
