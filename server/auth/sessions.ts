import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/db.js';
import type { SessionUser } from '../http/route.js';
import { GUARD_COOKIE, SESSION_MS, SID_COOKIE, TOKEN_HEADER } from './cookies.js';
import { newToken, sameHash, sha256 } from './tokens.js';

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

/** Loads the roles and flattened permission keys of an account. */
export async function loadGrants(q: Queryable, accountId: number): Promise<{ isSuperAdmin: boolean; keys: Set<string> }> {
  const roles = await q.query<{ is_super_admin: boolean }>(
    `SELECT r.is_super_admin FROM account_roles ar JOIN roles r ON r.id = ar.role_id WHERE ar.account_id = $1`,
    [accountId],
  );
  const perms = await q.query<{ module: string; permission_key: string; permission_type: number }>(
    `SELECT DISTINCT p.module, p.permission_key, p.permission_type
     FROM account_roles ar
     JOIN role_permissions rp ON rp.role_id = ar.role_id
     JOIN permissions p ON p.id = rp.permission_id
     WHERE ar.account_id = $1`,
    [accountId],
  );
  const keys = new Set<string>();
  for (const p of perms.rows) {
    keys.add(`${p.module}.${p.permission_key}`);
    if (Number(p.permission_type) === 4) keys.add(p.module);
  }
  return { isSuperAdmin: roles.rows.some((r) => r.is_super_admin), keys };
}

/**
 * The signed-in account of a request, or null. Needs the `admin-token` header, the `sid`
 * cookie equal to it, and the HttpOnly guard cookie of the same session; the session must be
 * live (not revoked, not expired) and the account enabled.
 */
export async function authenticate(q: Queryable, req: FastifyRequest): Promise<SessionUser | null> {
  const token = header(req, TOKEN_HEADER);
  const cookies = req.cookies ?? {};
  const sid = cookies[SID_COOKIE] ?? '';
  const guard = cookies[GUARD_COOKIE] ?? '';
  if (!token || !guard || sid !== token || token.length > 200 || guard.length > 200) return null;
  const r = await q.query<{ id: number; guard_hash: string; account_id: number; email: string; name: string }>(
    `SELECT s.id, s.guard_hash, a.id AS account_id, a.email, a.name
     FROM sessions s JOIN accounts a ON a.id = s.account_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND a.status = 1`,
    [sha256(token)],
  );
  const row = r.rows[0];
  if (!row || !sameHash(row.guard_hash, sha256(guard))) return null;
  const grants = await loadGrants(q, row.account_id);
  return { id: row.account_id, email: row.email, name: row.name, sessionId: row.id, ...grants };
}
