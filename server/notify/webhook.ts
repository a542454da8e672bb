/**
 * The webhook channel: one signed POST (server/notify/sign.ts) through the outbound-call policy
 * (server/http/outbound.ts). Redirects are not followed (a 3xx is a failed attempt, as with Svix
 * and Stripe): the address to call is the one the operator typed.
 */
import { describeOutboundError, outboundFetch } from '../http/outbound.js';
import { signHeaders } from './sign.js';
import type { NoticeMessage, SendResult } from './types.js';

export const WEBHOOK_EVENT = 'notification.published';

/** The JSON body of a delivery (docs/integrations.md shows it). */
export function webhookPayload(id: string, m: NoticeMessage, opts: { sandbox: boolean; publicUrl: string; now: Date }): Record<string, unknown> {
  return {
    type: WEBHOOK_EVENT,
    id,
    created_at: opts.now.toISOString(),
    sandbox: opts.sandbox,
    data: {
      notification_id: m.notificationId,
      shop_id: m.shopId,
      shop_name: m.shopName,
      title: m.title,
      content: m.content,
      jump_link: m.jumpLink,
      read_token: m.readToken,
      read: { method: 'POST', url: `${opts.publicUrl}/api/common/merchant/notification/read`, body: { token: m.readToken } },
    },
  };
}

export async function sendWebhook(url: string, secret: string, id: string, body: string, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<SendResult> {
  const headers = { ...signHeaders(secret, id, body), 'content-type': 'application/json', 'user-agent': 'backoffice-console-notify/1' };
  const signal = opts.signal ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]) : AbortSignal.timeout(opts.timeoutMs);
  let status: number | undefined;
  try {
    const res = await outboundFetch(url, { method: 'POST', headers, body, redirect: 'manual', signal });
    status = res.status;
    // the reply's body is never kept or shown; read it away so the connection can be reused
    await res.arrayBuffer().catch(() => undefined);
    if (status >= 200 && status < 300) return { ok: true, status };
    return { ok: false, status, error: describeOutboundError(null, status).message };
  } catch (e) {
    return { ok: false, status, error: describeOutboundError(e, status).message };
  }
}
