/**
 * Lookups loaded once per signed-in session and shared by every widget that names them
 * (spec section 7: `GET shop-list` with env `all` is a start-up call). The console starts them
 * after sign-in (`preloadSessionData`); a picker that names the same call and parameters reads
 * the kept reply instead of asking again. A successful write that changes the data
 * (`invalidatedBy`) drops it, so the next picker loads it afresh; sign-out clears everything.
 */
import { emitDataEvent } from './data-layer/events.js';
import type { HttpPort } from './env.js';

interface SessionLookup {
  /** API ref, e.g. "GET shop-list" */
  api: string;
  params: Record<string, unknown>;
  /** POST paths after which the kept reply is stale */
  invalidatedBy: RegExp;
}

/** The session-wide lookups. Shops: created, updated or deleted on the text and voice shop pages. */
export const SESSION_LOOKUPS: readonly SessionLookup[] = [
  { api: 'GET shop-list', params: { env: 'all' }, invalidatedBy: /^shop\/(create|update|delete|batch-delete)$/ },
];

/** The cache key of a call: API ref and its parameters (key order kept as written). */
export const lookupKey = (api: string, params: Record<string, unknown> | undefined): string => `${api.trim()}?${JSON.stringify(params ?? {})}`;

const kept = new Map<string, Promise<unknown>>();
const byKey = new Map(SESSION_LOOKUPS.map((l) => [lookupKey(l.api, l.params), l]));

/** Is this call one of the session-wide lookups? */
export function isSessionLookup(api: string, params: Record<string, unknown> | undefined): boolean {
  return byKey.has(lookupKey(api, params));
}

/** The kept reply of a session lookup, loading it (once, shared by concurrent callers) when absent. */
export function sessionLookup<T = unknown>(http: HttpPort, api: string, params: Record<string, unknown> | undefined): Promise<T> {
  const key = lookupKey(api, params);
  let p = kept.get(key);
  if (!p) {
    // lookups are GETs (api.ts calls invalidateAfterWrite, so this file does not import it)
    p = http.get<unknown>(api.trim().replace(/^GET\s+/, ''), params ?? {}, { silent: true });
    kept.set(key, p);
    // a failed load is not kept: the next picker tries again
    p.catch(() => kept.get(key) === p && kept.delete(key));
  }
  return p as Promise<T>;
}

/** Start-up: load every session lookup (errors are left to the pickers, which retry). */
export function preloadSessionData(http: HttpPort): void {
  for (const l of SESSION_LOOKUPS) sessionLookup(http, l.api, l.params).catch(() => undefined);
}

/** After a successful write (`POST <path>`): drop the lookups that write makes stale. */
export function invalidateAfterWrite(path: string): void {
  for (const [key, l] of byKey) if (l.invalidatedBy.test(path)) kept.delete(key);
}

/** Sign-out / another account: forget everything kept (the query cache too, src/runtime/data-layer). */
export function clearSessionData(): void {
  kept.clear();
  emitDataEvent({ kind: 'clear' });
}
