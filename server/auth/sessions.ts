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
}

export async function createSession(q: Queryable, accountId: number, ip: string, userAgent: string): Promise<NewSession> {
  const token = newToken();
  const guard = newToken();
  const r = await q.query<{ id: number }>(
    `INSERT INTO sessions (account_id, token_hash, guard_hash, ip, user_agent, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [accountId, sha256(token), sha256(guard), ip, userAgent.slice(0, 500), new Date(Date.now() + SESSION_MS)],
  );
  return { id: r.rows[0].id, token, guard };
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
/** How long a session look-up is reused when nothing was written here (bounds what other processes' writes take to be seen). */
export const SESSION_CACHE_MS = 5_000;

interface SessionRow {
  id: number;
  guard_hash: string;
  expires_at: Date | string;
  account_id: number;
  email: string;
  name: string;
  is_super_admin: boolean;
  keys: string[];
}

interface LiveSession {
  guardHash: string;
  expiresAt: number;
  user: SessionUser;
}

/** The session by token hash with its account, super-admin flag and permission keys, in one statement. */
async function findSession(q: Queryable, tokenHash: string): Promise<LiveSession | null> {
  const r = await q.query<SessionRow>(
    `SELECT s.id, s.guard_hash, s.expires_at, a.id AS account_id, a.email, a.name,
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
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND a.status = 1`,
    [tokenHash],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    guardHash: row.guard_hash,
    expiresAt: new Date(row.expires_at).getTime(),
    user: { id: row.account_id, email: row.email, name: row.name, sessionId: row.id, isSuperAdmin: row.is_super_admin, keys: new Set(row.keys) },
  };
}

/**
 * The signed-in account of a request, or null. Needs the `admin-token` header, the `sid`
 * cookie equal to it, and the HttpOnly guard cookie of the same session; the session must be
 * live (not revoked, not expired) and the account enabled. The look-up is one statement, and
 * on a tracked database (server/db/tracked.ts) it is reused for SESSION_CACHE_MS unless this
 * process writes to a table of SESSION_TABLES first (sign-out, role or account changes take
 * effect on the next request).
 */
export async function authenticate(q: Queryable, req: FastifyRequest): Promise<SessionUser | null> {
  const token = header(req, TOKEN_HEADER);
  const cookies = req.cookies ?? {};
  const sid = cookies[SID_COOKIE] ?? '';
  const guard = cookies[GUARD_COOKIE] ?? '';
  if (!token || !guard || sid !== token || token.length > 200 || guard.length > 200) return null;
  const tokenHash = sha256(token);
  const tracker = trackerOf(q);
  const live = tracker
    ? await tracker.memo(`session:${tokenHash}`, SESSION_TABLES, SESSION_CACHE_MS, () => findSession(q, tokenHash), (v) => v !== null)
    : await findSession(q, tokenHash);
  if (!live || !sameHash(live.guardHash, sha256(guard)) || live.expiresAt <= Date.now()) return null;
  return live.user;
}
