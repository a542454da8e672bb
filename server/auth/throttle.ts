import type { Queryable } from '../db/db.js';

/**
 * Sign-in throttling that slows guessing down without locking anyone out (issue 12 items 5, 7;
 * issue 25; docs/security.md "Sign-in throttling", OWASP ASVS 5.0 V6.1.1, V6.3.1):
 *
 * - per email + address: the first `freeFailures` failures cost nothing, then each further
 *   attempt waits a delay that doubles (5 s, 10 s, 20 s … up to 15 minutes); an hour without a
 *   failure forgets the pair, a successful sign-in clears it — the attacker's pair slows down,
 *   nobody else's;
 * - per account, a ceiling over every address. It never refuses a sign-in: past it, an address
 *   the account has not signed in from in the last 30 days is held `ceilingDelaySeconds` (30 s)
 *   once — its first attempt starts the hold (42901, retry_after ≤ 30), the next after it is
 *   checked as usual — so a distributed guesser pays 30 s per address and the owner, from
 *   anywhere, gets in after at most 30 s with the right password. The account is marked
 *   (`accounts.ceiling_hit_at`) and its next sign-in says so (audit row + the sign-in reply's
 *   `security_notice`); addresses it signed in from recently are not held at all;
 * - per address, a limit across accounts (one address spraying many emails).
 *
 * The decision and the account look-up are ONE statement, taken before any password check: the
 * attempt reserves its slot with INSERT … ON CONFLICT DO UPDATE … WHERE, which takes the row lock
 * and re-checks the latest row, so parallel attempts on PostgreSQL cannot get more checks than
 * the rule allows (the reservation commits at once, outside any transaction). A reservation
 * counts as a failure until a success deletes the pair.
 */
export interface ThrottleRules {
  freeFailures: number;
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** a pair without a failure for this long starts again from zero */
  pairResetMinutes: number;
  accountCeiling: number;
  accountWindowMinutes: number;
  addressLimit: number;
  addressWindowMinutes: number;
  /** addresses with a session of the account this recent are not held by the account ceiling */
  knownAddressDays: number;
  /** past the account ceiling, a new (account, address) pair waits this long once before its check */
  ceilingDelaySeconds: number;
}

export const THROTTLE: ThrottleRules = {
  freeFailures: 5,
  baseDelaySeconds: 5,
  maxDelaySeconds: 15 * 60,
  pairResetMinutes: 60,
  accountCeiling: 100,
  accountWindowMinutes: 60,
  addressLimit: 50,
  addressWindowMinutes: 15,
  knownAddressDays: 30,
  ceilingDelaySeconds: 30,
};

/** Seconds to wait after `failures` failures of one pair (0 while still free). */
export function delayAfter(failures: number, rules: ThrottleRules = THROTTLE): number {
  if (failures < rules.freeFailures) return 0;
  return Math.min(rules.maxDelaySeconds, rules.baseDelaySeconds * 2 ** Math.min(failures - rules.freeFailures, 20));
}

export interface LoginAccount {
  id: number;
  email: string;
  name: string;
  password_hash: string;
  status: number;
}

export type Refusal = 'pair' | 'account' | 'address';

export type Attempt =
  | { allowed: true; account: LoginAccount | null; /** the account is past its ceiling (the owner is told) */ overCeiling: boolean }
  | { allowed: false; reason: Refusal; retryAfter: number; account: LoginAccount | null };

interface DecisionRow {
  id: number | null;
  email: string | null;
  name: string | null;
  password_hash: string | null;
  status: number | null;
  reserved: number | null;
  by_account: number;
  by_address: number;
  known: boolean;
  over: boolean;
  hold_wait: number | null;
  pair_failures: number | null;
  pair_wait: number | null;
}

/** The pair's delay as SQL (seconds) over the row's `failures`, same rule as delayAfter. */
const DELAY_SQL = (col: string) => `least($8::float8, $7::float8 * power(2::float8, least(${col} - $6, 20)))`;

const DECIDE_SQL = `
WITH acct AS (
  SELECT id, email, name, password_hash, status FROM accounts WHERE email = $1
), counts AS (
  SELECT
    (SELECT coalesce(sum(failures), 0) FROM login_throttle
      WHERE email = $1 AND last_at > now() - make_interval(mins => $3))::int AS by_account,
    (SELECT coalesce(sum(failures), 0) FROM login_throttle
      WHERE ip = $2 AND last_at > now() - make_interval(mins => $5))::int AS by_address,
    EXISTS (SELECT 1 FROM sessions s WHERE s.account_id = (SELECT id FROM acct) AND s.ip = $2
             AND s.created_at > now() - make_interval(days => $10)) AS known,
    (SELECT held_since FROM login_throttle WHERE email = $1 AND ip = $2) AS held_since
), gate AS (
  SELECT c.*, (NOT c.known AND c.by_account >= $11) AS over,
         -- past the ceiling, a new address passes once its hold has lasted the delay
         (c.by_address < $4 AND (c.known OR c.by_account < $11
           OR (c.held_since IS NOT NULL AND c.held_since + make_interval(secs => $12) <= now()))) AS open
    FROM counts c
), hold AS (
  -- the first attempt of a pair past the ceiling starts its hold (no failure counted)
  INSERT INTO login_throttle AS t (email, ip, failures, last_at, held_since)
  SELECT $1, $2, 0, now(), now() FROM gate WHERE gate.over AND NOT gate.open AND gate.held_since IS NULL AND gate.by_address < $4
  ON CONFLICT (email, ip) DO UPDATE SET held_since = now() WHERE t.held_since IS NULL
  RETURNING t.held_since
), marked AS (
  -- the owner is told at its next sign-in (at most one write a minute)
  UPDATE accounts SET ceiling_hit_at = now()
   WHERE id = (SELECT id FROM acct) AND (SELECT over FROM gate)
     AND (ceiling_hit_at IS NULL OR ceiling_hit_at < now() - interval '1 minute')
  RETURNING id
), slot AS (
  INSERT INTO login_throttle AS t (email, ip, failures, last_at)
  SELECT $1, $2, 1, now() FROM gate WHERE gate.open
  ON CONFLICT (email, ip) DO UPDATE
    SET failures = CASE WHEN t.last_at <= now() - make_interval(mins => $9) THEN 1 ELSE t.failures + 1 END,
        last_at = now()
    WHERE t.last_at <= now() - make_interval(mins => $9)
       OR t.failures < $6
       OR t.last_at + make_interval(secs => ${DELAY_SQL('t.failures')}) <= now()
  RETURNING t.failures
)
SELECT a.id, a.email, a.name, a.password_hash, a.status,
       (SELECT failures FROM slot) AS reserved,
       g.by_account, g.by_address, g.known, g.over,
       extract(epoch FROM coalesce(g.held_since, (SELECT held_since FROM hold), now()) + make_interval(secs => $12) - now())::float8 AS hold_wait,
       p.failures AS pair_failures,
       CASE WHEN p.failures IS NULL THEN NULL
            ELSE extract(epoch FROM p.last_at + make_interval(secs => ${DELAY_SQL('p.failures')}) - now())::float8 END AS pair_wait
  FROM gate g
  LEFT JOIN acct a ON true
  LEFT JOIN login_throttle p ON p.email = $1 AND p.ip = $2`;

/**
 * Takes the throttle decision for one sign-in attempt and reads the account, in one statement.
 * Run it on the app's handle, not inside a transaction: the reservation must be visible to the
 * attempts running beside it before this one checks its password.
 */
export async function beginAttempt(q: Queryable, email: string, ip: string, rules: ThrottleRules = THROTTLE): Promise<Attempt> {
  const r = await q.query<DecisionRow>(DECIDE_SQL, [
    email,
    ip,
    rules.accountWindowMinutes,
    rules.addressLimit,
    rules.addressWindowMinutes,
    rules.freeFailures,
    rules.baseDelaySeconds,
    rules.maxDelaySeconds,
    rules.pairResetMinutes,
    rules.knownAddressDays,
    rules.accountCeiling,
    rules.ceilingDelaySeconds,
  ]);
  const row = r.rows[0];
  const account: LoginAccount | null =
    row.id === null ? null : { id: row.id, email: row.email!, name: row.name!, password_hash: row.password_hash!, status: Number(row.status) };
  if (row.reserved !== null) return { allowed: true, account, overCeiling: row.over };
  if (row.by_address >= rules.addressLimit) return { allowed: false, reason: 'address', retryAfter: rules.addressWindowMinutes * 60, account };
  if (row.over && !(Number(row.hold_wait) <= 0)) {
    // held once, never refused: the owner's right password gets in after the delay
    return { allowed: false, reason: 'account', retryAfter: Math.min(rules.ceilingDelaySeconds, Math.max(1, Math.ceil(Number(row.hold_wait ?? rules.ceilingDelaySeconds)))), account };
  }
  return { allowed: false, reason: 'pair', retryAfter: Math.max(1, Math.ceil(Number(row.pair_wait ?? 1))), account };
}

export interface SecurityNotice {
  /** the previous sign-in (null: none) */
  since: string | null;
  /** failed attempts on the account still counted (the last day), from `addresses` addresses */
  failed_attempts: number;
  addresses: number;
}

/**
 * At a successful sign-in, before it is recorded: whether the account's ceiling was reached since
 * its previous sign-in, and the failures behind it — what the owner is told (the sign-in reply's
 * `security_notice`, shown as a banner, and the audit row of the sign-in); this sign-in's own
 * address is not counted (its reservation is not a failure).
 */
export async function ceilingNotice(q: Queryable, accountId: number, email: string, ip: string): Promise<SecurityNotice | null> {
  const r = await q.query<{ since: string | null; hit: boolean; failed: number; addresses: number }>(
    `SELECT a.last_login_at AS since,
            (a.ceiling_hit_at IS NOT NULL AND a.ceiling_hit_at > coalesce(a.last_login_at, '-infinity'::timestamptz)) AS hit,
            (SELECT coalesce(sum(failures), 0) FROM login_throttle WHERE email = $2 AND ip <> $3)::int AS failed,
            (SELECT count(*) FROM login_throttle WHERE email = $2 AND ip <> $3 AND failures > 0)::int AS addresses
       FROM accounts a WHERE a.id = $1`,
    [accountId, email, ip],
  );
  const row = r.rows[0];
  if (!row?.hit) return null;
  return { since: row.since ? new Date(row.since).toISOString() : null, failed_attempts: row.failed, addresses: row.addresses };
}

/** A successful sign-in forgets the failures of its email + address. */
export async function clearPair(q: Queryable, email: string, ip: string): Promise<void> {
  await q.query('DELETE FROM login_throttle WHERE email = $1 AND ip = $2', [email, ip]);
}

/** Drops pairs nobody has tried for a day (called now and then after a failure). */
export async function pruneThrottle(q: Queryable): Promise<void> {
  await q.query(`DELETE FROM login_throttle WHERE last_at < now() - interval '1 day'`);
}
