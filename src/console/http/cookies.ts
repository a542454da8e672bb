/** The session cookie `sid` (spec section 7): saved for 7 days after login, read for the `admin-token` header. */
export const SID_COOKIE = 'sid';
const SEVEN_DAYS = 7 * 24 * 60 * 60;

export function readSid(cookie: string = globalThis.document?.cookie ?? ''): string | undefined {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SID_COOKIE) return decodeURIComponent(rest.join('=')) || undefined;
  }
  return undefined;
}

export function writeSid(token: string): void {
  if (!globalThis.document) return;
  document.cookie = `${SID_COOKIE}=${encodeURIComponent(token)}; path=/; max-age=${SEVEN_DAYS}; SameSite=Lax`;
}

export function clearSid(): void {
  if (!globalThis.document) return;
  document.cookie = `${SID_COOKIE}=; path=/; max-age=0; SameSite=Lax`;
}
