/**
 * The webhook signature scheme of notice delivery (docs/integrations.md "Notifications"): the
 * Standard Webhooks scheme that Svix uses, so a receiver can use any of its libraries.
 *
 * - `webhook-id`: the delivery's idempotency key, the same on every attempt (also sent as
 *   `Idempotency-Key`); a receiver keeps the ids it has processed and ignores a repeat.
 * - `webhook-timestamp`: Unix seconds of this attempt; a receiver refuses one more than
 *   `TOLERANCE_SECONDS` away from its own clock (a replay of an old, captured request).
 * - `webhook-signature`: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>`. The key is
 *   the secret's bytes: base64-decoded after a `whsec_` prefix, else the UTF-8 of the text.
 *   The id and the timestamp are signed with the body, so neither can be changed on its own.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TOLERANCE_SECONDS = 300;

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'idempotency-key': string;
}

export function secretKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function signHeaders(secret: string, id: string, body: string, now: Date = new Date()): SignedHeaders {
  const ts = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature(secret, id, ts, body), 'idempotency-key': id };
}

export type VerifyResult = { ok: true; id: string } | { ok: false; reason: 'missing' | 'stale' | 'signature' };

/** What a receiver does with a request (headers lower-cased, the raw body as received). */
export function verifyWebhook(secret: string, headers: Record<string, string | string[] | undefined>, body: string, now: Date = new Date()): VerifyResult {
  const h = (k: string) => {
    const v = headers[k];
    return Array.isArray(v) ? v[0] : v;
  };
  const id = h('webhook-id');
  const ts = Number(h('webhook-timestamp'));
  const sig = h('webhook-signature');
  if (!id || !sig || !Number.isInteger(ts)) return { ok: false, reason: 'missing' };
  if (Math.abs(now.getTime() / 1000 - ts) > TOLERANCE_SECONDS) return { ok: false, reason: 'stale' };
  const want = Buffer.from(signature(secret, id, ts, body));
  // the header may carry several space-separated signatures (a secret being rotated)
  for (const s of sig.split(' ')) {
    const got = Buffer.from(s);
    if (got.length === want.length && timingSafeEqual(got, want)) return { ok: true, id };
  }
  return { ok: false, reason: 'signature' };
}
