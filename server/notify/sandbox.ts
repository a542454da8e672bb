/**
 * The built-in sandbox receiver (demo data): a shop with no channel of its own gets its notices
 * here, so a newcomer sees deliveries happen without a receiver of their own. It is a receiver
 * like any other: the request is built and signed exactly as a real webhook's, and this side
 * verifies the signature and the timestamp and keeps what came in, once per webhook-id
 * (`notification_sandbox_inbox`; a repeat only counts up `received`). Every send, attempt and
 * reply that went to it says `sandbox`; nothing leaves the machine.
 */
import type { Queryable } from '../db/db.js';
import { signHeaders, verifyWebhook } from './sign.js';
import type { SendResult } from './types.js';

/** public on purpose: it signs nothing that leaves the server */
export const SANDBOX_SECRET = `whsec_${Buffer.from('backoffice-console sandbox receiver').toString('base64')}`;
export const SANDBOX_TARGET = 'sandbox://notify-receiver';

export async function sendToSandbox(db: Queryable, sendId: number, id: string, body: string): Promise<SendResult> {
  const headers = signHeaders(SANDBOX_SECRET, id, body);
  const v = verifyWebhook(SANDBOX_SECRET, headers as unknown as Record<string, string>, body);
  if (!v.ok) return { ok: false, status: 401, error: `sandbox receiver refused the signature (${v.reason}) / 沙箱接收端拒绝了签名（${v.reason}）` };
  await db.query(
    `INSERT INTO notification_sandbox_inbox (send_id, webhook_id, payload) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (webhook_id) DO UPDATE SET received = notification_sandbox_inbox.received + 1`,
    [sendId, v.id, body],
  );
  return { ok: true, status: 200 };
}
