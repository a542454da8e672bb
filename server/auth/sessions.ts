import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/db.js';
import type { SessionUser } from '../http/route.js';
import { GUARD_COOKIE, SESSION_MS, SID_COOKIE, TOKEN_HEADER } from './cookies.js';
import { newToken, sameHash, sha256 } from './tokens.js';
import { trackerOf } from '../db/tracked.js';

export interface NewSession {
  id: number;
  token: string;
  guard: string;
  /** live sessions of the account revoked to stay within the per-account limit (oldest first) */
  evicted: number[];
}

export interface SessionRules {
  /** a session unused this long is refused */
  idleMs: number;
  /** live sessions per account; a new one beyond it revokes the oldest */
  perAccount: number;
}

export const sessionRules = (config: { sessionIdleMinutes: number; sessionsPerAccount: number }): SessionRules => ({
  idleMs: config.sessionIdleMinutes * 60_000,
  perAccount: config.sessionsPerAccount,
});

/** The condition of a live session (alias `s`), `$idle` being the idle timeout in seconds. */
const LIVE = (idle: string) => `s.revoked_at IS NULL AND s.expires_at > now() AND s.last_seen_at > now() - make_interval(secs => ${idle})`;

/**
 * Creates a session and revokes the account's oldest live sessions beyond `rules.perAccount`.
 * Run it in a transaction: the account row is locked so two sign-ins at once cannot both keep
 * one session too many.
 */
export async function createSession(q: Queryable, accountId: number, ip: string, userAgent: string, rules: SessionRules): Promise<NewSession> {
  const token = newToken();
  const guard = newToken();
  await q.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  const r = await q.query<{ id: number }>(
    `INSERT INTO sessions (account_id, token_hash, guard_hash, ip, user_agent, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [accountId, sha256(token), sha256(guard), ip, userAgent.slice(0, 500), new Date(Date.now() + SESSION_MS)],
  );
  const evicted = await q.query<{ id: number }>(
    `UPDATE sessions SET revoked_at = now()
      WHERE id IN (SELECT s.id FROM sessions s WHERE s.account_id = $1 AND ${LIVE('$3')}
                    ORDER BY s.id DESC OFFSET $2)
      RETURNING id`,
    [accountId, Math.max(1, rules.perAccount), rules.idleMs / 1000],
  );
  return { id: r.rows[0].id, token, guard, evicted: evicted.rows.map((x) => x.id).sort((a, b) => a - b) };
}

export interface SessionInfo {
  id: number;
  ip: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  current: boolean;
}

/** The live sessions of an account, newest first. */
export async function liveSessions(q: Queryable, accountId: number, currentId: number, rules: SessionRules): Promise<SessionInfo[]> {
  const r = await q.query<{ id: number; ip: string; user_agent: string; created_at: Date | string; last_seen_at: Date | string; expires_at: Date | string }>(
    `SELECT s.id, s.ip, s.user_agent, s.created_at, s.last_seen_at, s.expires_at FROM sessions s
      WHERE s.account_id = $1 AND ${LIVE('$2')} ORDER BY s.id DESC`,
    [accountId, rules.idleMs / 1000],
  );
  const iso = (v: Date | string) => new Date(v).toISOString();
  return r.rows.map((x) => ({
    id: x.id,
    ip: x.ip,
    user_agent: x.user_agent,
    created_at: iso(x.created_at),
    last_seen_at: iso(x.last_seen_at),
    expires_at: iso(x.expires_at),
    current: x.id === currentId,
  }));
}

/** Revokes one live session of the account; false when it has none by that id. */
export async function revokeOwnSession(q: Queryable, accountId: number, sessionId: number): Promise<boolean> {
  const r = await q.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL', [sessionId, accountId]);
  return r.affectedRows > 0;
}

export async function revokeSession(q: Queryable, sessionId: number): Promise<void> {
  await q.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [sessionId]);
}

/** Revokes every live session of an account, except `keepSessionId` when given. */
export async function revokeAccountSessions(q: Queryable, accountId: number, keepSessionId?: number): Promise<number> {
  const r = await q.query(
    `UPDATE sessions SET revoked_at = now()
     WHERE account_id = $1 AND revoked_at IS NULL AND ($2::int IS NULL OR id <> $2::int)`,
    [accountId, keepSessionId ?? null],
  );
  return r.affectedRows;
}

const header = (req: FastifyRequest, name: string): string => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

/** What the grants of a session depend on: a write to any of these drops kept sessions. */
export const SESSION_TABLES = ['sessions', 'accounts', 'account_roles', 'roles', 'role_permissions', 'permissions'] as const;
/**
 * How long a session look-up is reused when nothing was written here. Other processes' writes on
 * PostgreSQL arrive at once by NOTIFY (migration 0026, server/app.ts); this bounds the rest (a
 * lost notification while the LISTEN connection reconnects drops every kept look-up anyway).
 */
export const SESSION_CACHE_MS = 5_000;

interface SessionRow {
  id: number;
  guard_hash: string;
  expires_at: Date | string;
  last_seen_at: Date | string;
  account_id: number;
  email: string;
  name: string;
  is_super_admin: boolean;
  keys: string[];
}

interface LiveSession {
  guardHash: string;
  expiresAt: number;
  /** when the session was last used (updated here when this process touches it) */
  lastSeenAt: number;
  user: SessionUser;
}

/** The session by token hash with its account, super-admin flag and permission keys, in one statement. */
async function findSession(q: Queryable, tokenHash: string, idleMs: number): Promise<LiveSession | null> {
  const r = await q.query<SessionRow>(
    `SELECT s.id, s.guard_hash, s.expires_at, s.last_seen_at, a.id AS account_id, a.email, a.name,
            EXISTS (SELECT 1 FROM account_roles ar JOIN roles r ON r.id = ar.role_id
                    WHERE ar.account_id = a.id AND r.is_super_admin) AS is_super_admin,
            ARRAY(SELECT p.module || '.' || p.permission_key
                  FROM account_roles ar JOIN role_permissions rp ON rp.role_id = ar.role_id
                  JOIN permissions p ON p.id = rp.permission_id
                  WHERE ar.account_id = a.id
                  UNION
                  SELECT p.module
                  FROM account_roles ar JOIN role_permissions rp ON rp.role_id = ar.role_id
                  JOIN permissions p ON p.id = rp.permission_id
                  WHERE ar.account_id = a.id AND p.permission_type = 4) AS keys
     FROM sessions s JOIN accounts a ON a.id = s.account_id
     WHERE s.token_hash = $1 AND ${LIVE('$2')} AND a.status = 1`,
    [tokenHash, idleMs / 1000],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    guardHash: row.guard_hash,
    expiresAt: new Date(row.expires_at).getTime(),
    lastSeenAt: new Date(row.last_seen_at).getTime(),
    user: { id: row.account_id, email: row.email, name: row.name, sessionId: row.id, isSuperAdmin: row.is_super_admin, keys: new Set(row.keys) },
  };
}

/** How often a session's last use is written: a tenth of the idle timeout, at most once a minute. */
const touchEvery = (idleMs: number) => Math.min(60_000, idleMs / 10);

/**
 * The signed-in account of a request, or null. Needs the `admin-token` header, the `sid`
 * cookie equal to it, and the HttpOnly guard cookie of the same session; the session must be
 * live (not revoked, not expired, used within the idle timeout) and the account enabled. The
 * look-up is one statement, and on a tracked database (server/db/tracked.ts) it is reused for
 * SESSION_CACHE_MS unless this process writes to a table of SESSION_TABLES first (sign-out, role
 * or account changes take effect on the next request). The session's last use is written at most
 * once per touch interval (not on every request), without waiting for it.
 */
export async function authenticate(q: Queryable, req: FastifyRequest, rules: SessionRules): Promise<SessionUser | null> {
  const token = header(req, TOKEN_HEADER);
  const cookies = req.cookies ?? {};
  const sid = cookies[SID_COOKIE] ?? '';
  const guard = cookies[GUARD_COOKIE] ?? '';
  if (!token || !guard || sid !== token || token.length > 200 || guard.length > 200) return null;
  const tokenHash = sha256(token);
  const tracker = trackerOf(q);
  const live = tracker
    ? await tracker.memo(`session:${tokenHash}`, SESSION_TABLES, SESSION_CACHE_MS, () => findSession(q, tokenHash, rules.idleMs), (v) => v !== null)
    : await findSession(q, tokenHash, rules.idleMs);
  const now = Date.now();
  if (!live || !sameHash(live.guardHash, sha256(guard)) || live.expiresAt <= now || now - live.lastSeenAt >= rules.idleMs) return null;
  if (now - live.lastSeenAt >= touchEvery(rules.idleMs)) {
    live.lastSeenAt = now;
    q.query('UPDATE sessions SET last_seen_at = now() WHERE id = $1 AND revoked_at IS NULL', [live.user.sessionId]).catch((err: unknown) =>
      req.log.warn({ err }, 'could not record the last use of a session'),
    );
  }
  return live.user;
}
