import type { Queryable } from '../db/db.js';

/** Login throttling, kept in the database so it holds across restarts and instances. */
export const WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;

export async function isThrottled(q: Queryable, email: string, ip: string): Promise<boolean> {
  const r = await q.query<{ by_email: number; by_ip: number }>(
    `SELECT
       (SELECT count(*)::int FROM login_failures WHERE email = $1 AND created_at > now() - make_interval(mins => $3)) AS by_email,
       (SELECT count(*)::int FROM login_failures WHERE ip = $2 AND created_at > now() - make_interval(mins => $3)) AS by_ip`,
    [email, ip, WINDOW_MINUTES],
  );
  const row = r.rows[0];
  return row.by_email >= MAX_FAILURES_PER_ACCOUNT || row.by_ip >= MAX_FAILURES_PER_ADDRESS;
}

export async function recordFailure(q: Queryable, email: string, ip: string): Promise<void> {
  await q.query('INSERT INTO login_failures (email, ip) VALUES ($1, $2)', [email, ip]);
  // keep the table small: drop rows older than a day now and then
  if (Math.random() < 0.05) await q.query(`DELETE FROM login_failures WHERE created_at < now() - interval '1 day'`);
}

export async function clearFailures(q: Queryable, email: string): Promise<void> {
  await q.query('DELETE FROM login_failures WHERE email = $1', [email]);
}
