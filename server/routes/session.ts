import { Code } from '../../src/contract/codes.js';
import type { Queryable } from '../db/db.js';
import { clearSessionCookies, setSessionCookies } from '../auth/cookies.js';
import { MIN_PASSWORD_LENGTH, hashPassword, verifyDummy, verifyPassword } from '../auth/password.js';
import { createSession, revokeAccountSessions, revokeSession } from '../auth/sessions.js';
import { clearFailures, isThrottled, recordFailure } from '../auth/throttle.js';
import { writeAudit } from '../auth/audit.js';
import { CommittedError, invalid } from '../http/errors.js';
import { defineRoutes, type RouteContext } from '../http/route.js';

export const roleRef = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, is_super_admin: { type: 'boolean' } },
};
const userProps = {
  id: { type: 'integer' },
  email: { type: 'string' },
  name: { type: 'string' },
  roles: { type: 'array', items: roleRef },
};

export async function rolesOf(q: Queryable, accountId: number) {
  const r = await q.query<{ id: number; name: string; is_super_admin: boolean }>(
    `SELECT r.id, r.name, r.is_super_admin FROM account_roles ar JOIN roles r ON r.id = ar.role_id
     WHERE ar.account_id = $1 ORDER BY r.id`,
    [accountId],
  );
  return r.rows;
}

const cookieSecure = (ctx: RouteContext<unknown, unknown>): boolean => ctx.req.server.backofficeConfig.cookieSecure;

const BAD_LOGIN = 'incorrect email or password';

interface LoginBody {
  email: string;
  password: string;
}
interface PwdBody {
  old_password: string;
  new_password: string;
}

export const routes = defineRoutes([
  {
    method: 'POST',
    path: 'user/login',
    access: 'public',
    summary: 'Sign in; sets cookies sid (readable) and sid_guard (HttpOnly)',
    body: {
      type: 'object',
      required: ['email', 'password'],
      properties: { email: { type: 'string', minLength: 1, maxLength: 200 }, password: { type: 'string', minLength: 1, maxLength: 200 } },
    },
    reply: { type: 'object', properties: { user: { type: 'object', properties: { ...userProps, token: { type: 'string' } } } } },
    async handler(ctx: RouteContext<unknown, LoginBody>) {
      const email = ctx.body.email.trim().toLowerCase();
      const ip = ctx.req.ip ?? '';
      const ua = String(ctx.req.headers['user-agent'] ?? '');
      const anon = { id: null, email, ip, userAgent: ua };
      if (await isThrottled(ctx.db, email, ip)) {
        await writeAudit(ctx.db, anon, { action: 'login_throttled', resource: 'session' });
        throw new CommittedError(Code.TOO_MANY);
      }
      const r = await ctx.db.query<{ id: number; email: string; name: string; password_hash: string; status: number }>(
        'SELECT id, email, name, password_hash, status FROM accounts WHERE email = $1',
        [email],
      );
      const acc = r.rows[0];
      const ok = acc ? await verifyPassword(ctx.body.password, acc.password_hash) : await verifyDummy(ctx.body.password);
      if (!acc || !ok || acc.status !== 1) {
        await recordFailure(ctx.db, email, ip);
        const reason = !acc ? 'unknown_email' : !ok ? 'wrong_password' : 'disabled';
        await writeAudit(ctx.db, { ...anon, id: acc?.id ?? null }, { action: 'login_failed', resource: 'session', targetId: acc?.id, after: { reason } });
        throw new CommittedError(Code.VALIDATION, BAD_LOGIN);
      }
      await clearFailures(ctx.db, email);
      const s = await createSession(ctx.db, acc.id, ip, ua);
      await ctx.db.query('UPDATE accounts SET last_login_at = now() WHERE id = $1', [acc.id]);
      await writeAudit(ctx.db, { id: acc.id, email: acc.email, ip, userAgent: ua }, { action: 'login', resource: 'session', targetId: s.id });
      setSessionCookies(ctx.reply, s.token, s.guard, cookieSecure(ctx));
      return { user: { id: acc.id, email: acc.email, name: acc.name, token: s.token, roles: await rolesOf(ctx.db, acc.id) } };
    },
  },
  {
    method: 'POST',
    path: 'user/logout',
    access: 'login',
    summary: 'Sign out: revokes the session and clears both cookies',
    async handler(ctx) {
      const user = ctx.user!;
      await revokeSession(ctx.db, user.sessionId);
      await ctx.audit({ action: 'logout', resource: 'session', targetId: user.sessionId });
      clearSessionCookies(ctx.reply, cookieSecure(ctx));
      return null;
    },
  },
  {
    method: 'GET',
    path: 'User/Get',
    access: 'login',
    summary: 'The signed-in account',
    reply: { type: 'object', properties: userProps },
    async handler(ctx) {
      const u = ctx.user!;
      return { id: u.id, email: u.email, name: u.name, roles: await rolesOf(ctx.db, u.id) };
    },
  },
  {
    method: 'POST',
    path: 'user/update-pwd',
    access: 'login',
    summary: 'Change own password; revokes the other sessions of the account',
    body: {
      type: 'object',
      required: ['old_password', 'new_password'],
      properties: {
        old_password: { type: 'string', minLength: 1, maxLength: 200 },
        new_password: { type: 'string', minLength: MIN_PASSWORD_LENGTH, maxLength: 200 },
      },
    },
    async handler(ctx: RouteContext<unknown, PwdBody>) {
      const u = ctx.user!;
      const r = await ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE id = $1', [u.id]);
      if (!r.rows[0] || !(await verifyPassword(ctx.body.old_password, r.rows[0].password_hash))) {
        throw invalid([{ field: 'old_password', message: 'is incorrect' }]);
      }
      await ctx.db.query('UPDATE accounts SET password_hash = $1, updated_at = now() WHERE id = $2', [
        await hashPassword(ctx.body.new_password),
        u.id,
      ]);
      const revoked = await revokeAccountSessions(ctx.db, u.id, u.sessionId);
      await ctx.audit({ action: 'update_password', resource: 'account', targetId: u.id, after: { revoked_sessions: revoked } });
      return null;
    },
  },
]);
