/**
 * Settings of notice delivery, read from the environment at each use (the API server and the
 * workers of one deployment read the same environment; tests set them before a server starts).
 * docs/integrations.md "Notifications" lists them.
 */
const num = (v: string | undefined, dflt: number, min: number, max: number): number => {
  const n = Number(v);
  return v !== undefined && v.trim() !== '' && Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : dflt;
};

export interface NotifySettings {
  /** attempts per send before it is marked failed (NOTIFY_MAX_ATTEMPTS, default 6) */
  maxAttempts: number;
  /** the first retry waits this long; each next one twice as long (NOTIFY_RETRY_BASE_MS, default 30 s) */
  retryBaseMs: number;
  /** the longest wait between two attempts (NOTIFY_RETRY_MAX_MS, default 1 h) */
  retryMaxMs: number;
  /** a claimed send not finished in this time is taken as lost and sent again (NOTIFY_LEASE_SECONDS, default 60) */
  leaseSeconds: number;
  /** one webhook call or SMTP conversation may take this long (NOTIFY_TIMEOUT_MS, default 10 s) */
  timeoutMs: number;
  /** sends claimed at once by one delivery job (NOTIFY_BATCH, default 20) */
  batch: number;
  /** sends of a batch in flight at once (NOTIFY_CONCURRENCY, default 8) */
  concurrency: number;
  /** the console's public address, for the read link in payloads and mails (NOTIFY_PUBLIC_URL, optional) */
  publicUrl: string;
}

export function notifySettings(env: NodeJS.ProcessEnv = process.env): NotifySettings {
  return {
    maxAttempts: Math.round(num(env.NOTIFY_MAX_ATTEMPTS, 6, 1, 50)),
    retryBaseMs: num(env.NOTIFY_RETRY_BASE_MS, 30_000, 10, 86_400_000),
    retryMaxMs: num(env.NOTIFY_RETRY_MAX_MS, 3_600_000, 10, 7 * 86_400_000),
    leaseSeconds: num(env.NOTIFY_LEASE_SECONDS, 60, 1, 3600),
    timeoutMs: num(env.NOTIFY_TIMEOUT_MS, 10_000, 100, 300_000),
    batch: Math.round(num(env.NOTIFY_BATCH, 20, 1, 500)),
    concurrency: Math.round(num(env.NOTIFY_CONCURRENCY, 8, 1, 64)),
    publicUrl: (env.NOTIFY_PUBLIC_URL ?? '').trim().replace(/\/+$/, ''),
  };
}

/** The wait before attempt `next` (2, 3, …): base · 2^(next − 2), capped. */
export function backoffMs(next: number, s: NotifySettings = notifySettings()): number {
  return Math.min(s.retryMaxMs, s.retryBaseMs * 2 ** Math.max(0, next - 2));
}
