import { Type } from '@sinclair/typebox';
import { Code } from '../../src/contract/codes.js';
import type { Queryable } from '../db/db.js';
import { clearSessionCookies, setSessionCookies } from '../auth/cookies.js';
import { MIN_PASSWORD_LENGTH, hashPassword, verifyDummy, verifyPassword } from '../auth/password.js';
import { assertNewPassword } from '../auth/password-policy.js';
import { createSession, liveSessions, revokeAccountSessions, revokeOwnSession, revokeSession, sessionRules } from '../auth/sessions.js';
import { THROTTLE, beginAttempt, ceilingNotice, clearPair, pruneThrottle } from '../auth/throttle.js';
import { writeAudit, type AuditActor } from '../auth/audit.js';
import { AppError, conflict, invalid, notFound } from '../http/errors.js';
import { defineRoutes, route, type RouteContext } from '../http/route.js';
import { NoReply } from '../http/typebox.js';
import { LoginReply, ProfileReply, RevokedReply, SessionsReply, UserReply } from '../../src/contract/replies/session.js';

export async function rolesOf(q: Queryable, accountId: number) {
  const r = await q.query<{ id: number; name: string; is_super_admin: boolean }>(
    `SELECT r.id, r.name, r.is_super_admin FROM account_roles ar JOIN roles r ON r.id = ar.role_id
     WHERE ar.account_id = $1 ORDER BY r.id`,
    [accountId],
  );
  return r.rows;
}

type AnyContext = RouteContext<unknown, unknown, Queryable>;

const cookieSecure = (ctx: AnyContext): boolean => ctx.req.server.backofficeConfig.cookieSecure;
const rulesOf = (ctx: AnyContext) => sessionRules(ctx.req.server.backofficeConfig);
const userAgent = (ctx: AnyContext): string => String(ctx.req.headers['user-agent'] ?? '');
/** the signed-in caller as an audit actor (for audit rows written inside a route's own transaction) */
const actorOf = (ctx: AnyContext): AuditActor => ({ id: ctx.user!.id, email: ctx.user!.email, ip: ctx.req.ip ?? '', userAgent: userAgent(ctx) });

const BAD_LOGIN = 'incorrect email or password / 邮箱或密码错误';

export const routes = defineRoutes([
  route({
    method: 'POST',
    path: 'user/login',
    access: 'public',
    rateLimit: 'login',
    // the password check must hold no connection or transaction (on PGlite one would stop every
    // other request while it runs): a decision statement, the hash, then a short transaction
    transaction: false,
    summary:
      'Sign in; sets cookies sid (readable) and sid_guard (HttpOnly). Throttled per email + address (42901 with data.retry_after); past the account ceiling a new address is held 30 s once, never refused. `security_notice`: the ceiling was reached since the previous sign-in',
    body: Type.Object({
      email: Type.String({ minLength: 1, maxLength: 200 }),
      password: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    reply: LoginReply,
    async handler(ctx) {
      const email = ctx.body.email.trim().toLowerCase();
      const ip = ctx.req.ip ?? '';
      const ua = userAgent(ctx);
      const anon: AuditActor = { id: null, email, ip, userAgent: ua };
      // one statement: the throttle decision (reserving this attempt) and the account
      const attempt = await beginAttempt(ctx.db, email, ip, { ...THROTTLE, accountCeiling: ctx.req.server.backofficeConfig.loginAccountCeiling });
      if (!attempt.allowed) {
        const wait = attempt.retryAfter;
        await writeAudit(ctx.db, { ...anon, id: attempt.account?.id ?? null }, {
          action: 'login_throttled',
          resource: 'session',
          targetId: attempt.account?.id,
          after: { reason: attempt.reason, retry_after: wait },
        });
        throw new AppError(Code.TOO_MANY, `too many sign-in attempts, try again in ${wait} s / 登录尝试过多，请 ${wait} 秒后再试`, { retry_after: wait });
      }
      const acc = attempt.account;
      const ok = acc ? await verifyPassword(ctx.body.password, acc.password_hash) : await verifyDummy(ctx.body.password);
      if (!acc || !ok || acc.status !== 1) {
        // the attempt already counts as a failure (reserved above)
        const reason = !acc ? 'unknown_email' : !ok ? 'wrong_password' : 'disabled';
        await writeAudit(ctx.db, { ...anon, id: acc?.id ?? null }, { action: 'login_failed', resource: 'session', targetId: acc?.id, after: { reason } });
        if (Math.random() < 0.02) await pruneThrottle(ctx.db);
        // a 40001 names a field like every other; the same one whichever was wrong (no hint which)
        throw new AppError(Code.VALIDATION, BAD_LOGIN, { errors: [{ field: 'password', message: BAD_LOGIN }] });
      }
      const { s, roles, notice } = await ctx.db.tx(async (q) => {
        // read before this sign-in is recorded (it compares with the previous one)
        const notice = await ceilingNotice(q, acc.id, acc.email, ip);
        await clearPair(q, email, ip);
        const s = await createSession(q, acc.id, ip, ua, rulesOf(ctx));
        await q.query('UPDATE accounts SET last_login_at = now() WHERE id = $1', [acc.id]);
        const after = {
          ...(s.evicted.length ? { evicted_sessions: s.evicted } : {}),
          // past the ceiling from a new address: this sign-in was held first (THROTTLE.ceilingDelaySeconds)
          ...(attempt.overCeiling ? { account_ceiling: true, held_seconds: THROTTLE.ceilingDelaySeconds } : {}),
          ...(notice ? { security_notice: notice } : {}),
        };
        await writeAudit(q, { id: acc.id, email: acc.email, ip, userAgent: ua }, {
          action: 'login',
          resource: 'session',
          targetId: s.id,
          ...(Object.keys(after).length ? { after } : {}),
        });
        return { s, roles: await rolesOf(q, acc.id), notice };
      });
      setSessionCookies(ctx.reply, s.token, s.guard, cookieSecure(ctx));
      return { user: { id: acc.id, email: acc.email, name: acc.name, token: s.token, roles }, security_notice: notice };
    },
  }),
  route({
    method: 'POST',
    path: 'user/logout',
    access: 'login',
    summary: 'Sign out: revokes the session and clears both cookies',
    reply: NoReply,
    async handler(ctx) {
      const user = ctx.user!;
      await revokeSession(ctx.db, user.sessionId);
      await ctx.audit({ action: 'logout', resource: 'session', targetId: user.sessionId });
      clearSessionCookies(ctx.reply, cookieSecure(ctx));
      return null;
    },
  }),
  route({
    method: 'GET',
    path: 'User/Get',
    access: 'login',
    summary: 'The signed-in account',
    reply: UserReply,
    async handler(ctx) {
      const u = ctx.user!;
      return { id: u.id, email: u.email, name: u.name, roles: await rolesOf(ctx.db, u.id) };
    },
  }),
  route({
    method: 'POST',
    path: 'user/update-pwd',
    access: 'login',
    // two password hashes: outside any transaction, then one short one for the change
    transaction: false,
    summary: 'Change own password; revokes the other sessions of the account',
    body: Type.Object({
      old_password: Type.String({ minLength: 1, maxLength: 200 }),
      new_password: Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 200 }),
    }),
    reply: NoReply,
    async handler(ctx) {
      const u = ctx.user!;
      await assertNewPassword(ctx.body.new_password, u.email, 'new_password');
      const r = await ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE id = $1', [u.id]);
      const stored = r.rows[0]?.password_hash;
      if (!stored || !(await verifyPassword(ctx.body.old_password, stored))) {
        throw invalid([{ field: 'old_password', message: 'is incorrect / 原密码不正确' }]);
      }
      const hash = await hashPassword(ctx.body.new_password);
      await ctx.db.tx(async (q) => {
        // only over the hash that was checked: a change made meanwhile is not overwritten
        const changed = await q.query('UPDATE accounts SET password_hash = $1, updated_at = now() WHERE id = $2 AND password_hash = $3', [hash, u.id, stored]);
        if (changed.affectedRows === 0) throw conflict('the password was changed meanwhile, try again / 密码刚被修改过，请重试');
        const revoked = await revokeAccountSessions(q, u.id, u.sessionId);
        await writeAudit(q, actorOf(ctx), { action: 'update_password', resource: 'account', targetId: u.id, after: { revoked_sessions: revoked } });
      });
      return null;
    },
  }),
  route({
    method: 'GET',
    path: 'user/sessions',
    access: 'login',
    summary: 'My sessions: the live sessions of the signed-in account, newest first (`current` marks this one)',
    reply: SessionsReply,
    async handler(ctx) {
      const u = ctx.user!;
      const config = ctx.req.server.backofficeConfig;
      return {
        list: await liveSessions(ctx.db, u.id, u.sessionId, rulesOf(ctx)),
        idle_minutes: config.sessionIdleMinutes,
        max_sessions: config.sessionsPerAccount,
      };
    },
  }),
  route({
    method: 'POST',
    path: 'user/session-revoke',
    access: 'login',
    summary: 'Revoke one of my sessions (revoking this one signs out and clears the cookies)',
    body: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
    reply: NoReply,
    async handler(ctx) {
      const u = ctx.user!;
      if (!(await revokeOwnSession(ctx.db, u.id, ctx.body.id))) throw notFound('session');
      await ctx.audit({ action: 'revoke_session', resource: 'session', targetId: ctx.body.id });
      if (ctx.body.id === u.sessionId) clearSessionCookies(ctx.reply, cookieSecure(ctx));
      return null;
    },
  }),
  route({
    method: 'POST',
    path: 'user/session-revoke-others',
    access: 'login',
    summary: 'Revoke every session of mine except this one',
    reply: RevokedReply,
    async handler(ctx) {
      const u = ctx.user!;
      const revoked = await revokeAccountSessions(ctx.db, u.id, u.sessionId);
      await ctx.audit({ action: 'revoke_other_sessions', resource: 'session', targetId: u.id, after: { revoked_sessions: revoked } });
      return { revoked };
    },
  }),
  route({
    method: 'GET',
    path: 'user/profile',
    access: 'login',
    summary: "My info: the signed-in account, its roles, how many keys it holds per module, its live sessions and its own latest audit events (20)",
    reply: ProfileReply,
    async handler(ctx) {
      const u = ctx.user!;
      const acct = (
        await ctx.db.query<{ created_at: Date; last_login_at: Date | null }>('SELECT created_at, last_login_at FROM accounts WHERE id = $1', [u.id])
      ).rows[0];
      const roles = await ctx.db.query<{ id: number; name: string; is_super_admin: boolean }>(
        'SELECT r.id, r.name, r.is_super_admin FROM account_roles ar JOIN roles r ON r.id = ar.role_id WHERE ar.account_id = $1 ORDER BY r.id',
        [u.id],
      );
      const modules = await ctx.db.query<{ module: string; keys: number }>(
        u.isSuperAdmin
          ? `SELECT module, count(*)::int AS keys FROM permissions GROUP BY module ORDER BY module`
          : `SELECT p.module, count(DISTINCT p.id)::int AS keys FROM account_roles ar JOIN role_permissions rp ON rp.role_id = ar.role_id
             JOIN permissions p ON p.id = rp.permission_id WHERE ar.account_id = $1 GROUP BY p.module ORDER BY p.module`,
        u.isSuperAdmin ? [] : [u.id],
      );
      const recent = await ctx.db.query<{ id: string | number; action: string; resource: string; target_id: string | null; ip: string; created_at: Date }>(
        'SELECT id, action, resource, target_id, ip, created_at FROM audit_logs WHERE actor_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20',
        [u.id],
      );
      const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
      return {
        id: u.id,
        email: u.email,
        name: u.name,
        created_at: iso(acct.created_at)!,
        last_login_at: iso(acct.last_login_at),
        super_admin: u.isSuperAdmin,
        roles: roles.rows,
        modules: modules.rows,
        sessions: (await liveSessions(ctx.db, u.id, u.sessionId, rulesOf(ctx))).length,
        recent: recent.rows.map((r) => ({ ...r, id: Number(r.id), created_at: iso(r.created_at)! })),
      };
    },
  }),
]);
