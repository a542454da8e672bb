import type { FastifyReply } from 'fastify';

export const SID_COOKIE = 'sid';
/** HttpOnly companion of `sid`: a request is authenticated only when both match one session. */
export const GUARD_COOKIE = 'sid_guard';
export const TOKEN_HEADER = 'admin-token';
export const SESSION_DAYS = 7;
export const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;

export function setSessionCookies(reply: FastifyReply, token: string, guard: string, secure: boolean): void {
  const base = { path: '/', sameSite: 'lax' as const, secure, maxAge: SESSION_MS / 1000 };
  // `sid` is read by the client script (spec: token kept in cookie sid, sent as admin-token).
  reply.setCookie(SID_COOKIE, token, { ...base, httpOnly: false });
  reply.setCookie(GUARD_COOKIE, guard, { ...base, httpOnly: true });
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  const base = { path: '/', sameSite: 'lax' as const, secure };
  reply.clearCookie(SID_COOKIE, { ...base, httpOnly: false });
  reply.clearCookie(GUARD_COOKIE, { ...base, httpOnly: true });
}
