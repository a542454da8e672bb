/**
 * Where API calls go (spec sections 7 and 9): the base `/api/`, rewritten to a stored API
 * domain preference, and dev-host detection (host starts with `admindev` or `localhost`).
 * The domain preference is honoured only on dev hosts, so a stale entry on a production
 * host can never send the session token to another origin.
 */

export const API_BASE = '/api/';
export const API_DOMAIN_KEY = 'api_domain';

export function isDevHost(hostname: string = globalThis.location?.hostname ?? ''): boolean {
  return hostname.startsWith('admindev') || hostname.startsWith('localhost');
}

/** The stored domain, e.g. `https://admindev.example.com` (plain or JSON-quoted); null when absent or not an origin. */
export function getApiDomain(): string | null {
  let raw: string | null = null;
  try {
    raw = globalThis.localStorage?.getItem(API_DOMAIN_KEY) ?? null;
  } catch {
    return null;
  }
  const v = raw?.trim().replace(/^"(.*)"$/, '$1');
  return v && /^https?:\/\/[^/\s]+\/?$/.test(v) ? v.replace(/\/$/, '') : null;
}

/** `/api/`, or `https://domain/api/` when a domain preference is stored and the host is a dev host. */
export function apiBase(hostname?: string): string {
  const domain = getApiDomain();
  return domain && isDevHost(hostname) ? `${domain}${API_BASE}` : API_BASE;
}
