/**
 * `notification.deliver`: sends the due sends of one notification, a batch at a time (claimed
 * under a lease, server/notify/sends.ts), a few in flight at once, until none is due; then it
 * ends. Sends waiting for a retry, and sends whose worker died, are picked up by the
 * `notification.deliver` ticker, which queues a job for every notification with a send due
 * (and none queued or running). Which channel: the send's (webhook, e-mail) or the built-in
 * sandbox receiver (demo data, server/notify/sandbox.ts).
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { decryptSecret, SecretUnreadable } from '../ai/secrets.js';
import type { JobContext, JobKind, Ticker } from '../jobs/types.js';
import { sendEmail, type SmtpConfig } from './email.js';
import { sendToSandbox } from './sandbox.js';
import { claimSends, dueNotifications, DELIVER_KIND, ensureDeliverJob, recordResult, releaseSends, type ClaimedSend } from './sends.js';
import { notifySettings, type NotifySettings } from './settings.js';
import type { NoticeMessage, SendResult } from './types.js';
import { sendWebhook, webhookPayload } from './webhook.js';

interface Channel {
  id: number;
  kind: string;
  enabled: boolean;
  url: string;
  secret_enc: string;
  email_to: string;
}

async function loadSmtp(q: Queryable): Promise<SmtpConfig | null> {
  const r = (await q.query<{ host: string; port: number; secure: boolean; username: string; password_enc: string; from_address: string }>(`SELECT * FROM notification_smtp WHERE id = 1`)).rows[0];
  if (!r) return null;
  return { host: r.host, port: r.port, secure: r.secure, username: r.username, password: r.password_enc, from: r.from_address };
}

const CHANNEL_GONE = 'the channel was deleted or turned off / 该渠道已删除或停用';

/** One attempt of one send: what the channel answered (never throws). */
async function attempt(ctx: JobContext<{ notificationId: number }>, send: ClaimedSend, notice: NoticeMessage, channels: Map<number, Channel>, smtp: SmtpConfig | null, s: NotifySettings): Promise<SendResult> {
  const now = new Date();
  const body = () => JSON.stringify(webhookPayload(send.idempotency_key, notice, { sandbox: send.channel === 'sandbox', publicUrl: s.publicUrl, now }));
  if (send.channel === 'sandbox') return sendToSandbox(ctx.db, send.id, send.idempotency_key, body());
  const ch = send.channel_id ? channels.get(send.channel_id) : undefined;
  if (!ch || !ch.enabled || ch.kind !== send.channel) return { ok: false, error: CHANNEL_GONE };
  try {
    if (send.channel === 'webhook') return await sendWebhook(ch.url, decryptSecret(ch.secret_enc), send.idempotency_key, body(), { timeoutMs: s.timeoutMs, signal: ctx.signal });
    const mail = smtp && { ...smtp, password: smtp.password ? decryptSecret(smtp.password) : '' };
    return await sendEmail(mail ?? { host: '', port: 0, secure: false, username: '', password: '', from: '' }, ch.email_to, send.idempotency_key, notice, {
      timeoutMs: s.timeoutMs,
      publicUrl: s.publicUrl,
    });
  } catch (e) {
    if (e instanceof SecretUnreadable) return { ok: false, error: e.message };
    return { ok: false, error: 'the send failed unexpectedly / 发送时出现意外错误' };
  }
}

async function counts(q: Queryable, id: number): Promise<{ done: number; total: number }> {
  const r = await q.query<{ done: number; total: number }>(
    `SELECT count(*) FILTER (WHERE state IN ('delivered', 'failed'))::int AS done, count(*)::int AS total FROM notification_send WHERE notification_id = $1`,
    [id],
  );
  return r.rows[0];
}

export const deliverKind: JobKind<{ notificationId: number }> = {
  kind: DELIVER_KIND,
  title: (d) => `Deliver notification ${d.notificationId} / 投递通知 ${d.notificationId}`,
  maxAttempts: 5,
  retryDelaySeconds: 2,
  async run(ctx) {
    const id = ctx.job.data.notificationId;
    const s = notifySettings();
    const owner = `${os.hostname()}:${process.pid}:job${ctx.job.id}:${randomBytes(3).toString('hex')}`;
    const n = (await ctx.db.query<{ title: string; content: string; jump_link: string }>(`SELECT title, content, jump_link FROM notification WHERE id = $1`, [id])).rows[0];
    if (!n) return { skipped: true };
    const smtp = await loadSmtp(ctx.db);
    const tally = { delivered: 0, failed: 0, retry: 0 };
    for (;;) {
      await ctx.checkpoint();
      const batch = await claimSends(ctx.db, id, owner, ctx.now(), s, s.batch);
      if (!batch.length) break;
      const shops = [...new Set(batch.map((b) => b.shop_id))];
      const info = new Map(
        (
          await ctx.db.query<{ shop_id: number; name: string; read_token: string }>(
            `SELECT d.shop_id, coalesce(sh.name, '') AS name, d.read_token FROM notification_delivery d LEFT JOIN shop sh ON sh.id = d.shop_id
              WHERE d.notification_id = $1 AND d.shop_id = ANY($2::int[])`,
            [id, shops],
          )
        ).rows.map((r) => [r.shop_id, r]),
      );
      const channelIds = batch.map((b) => b.channel_id).filter((x): x is number => x !== null);
      const channels = new Map(
        (await ctx.db.query<Channel>(`SELECT id, kind, enabled, url, secret_enc, email_to FROM notification_channel WHERE id = ANY($1::int[])`, [channelIds])).rows.map((c) => [c.id, c]),
      );
      const queue = [...batch];
      const worker = async () => {
        for (let send = queue.shift(); send; send = queue.shift()) {
          if (ctx.signal.aborted) {
            queue.unshift(send);
            return;
          }
          const d = info.get(send.shop_id);
          const notice: NoticeMessage = { notificationId: id, shopId: send.shop_id, shopName: d?.name ?? '', title: n.title, content: n.content, jumpLink: n.jump_link, readToken: d?.read_token ?? '' };
          const started = Date.now();
          const r = await attempt(ctx, send, notice, channels, smtp, s);
          const state = await recordResult(ctx.db, send, owner, r, ctx.now(), started, s);
          if (state === 'delivered') tally.delivered++;
          else if (state === 'failed') tally.failed++;
          else if (state === 'pending') tally.retry++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(s.concurrency, batch.length) }, worker));
      if (queue.length) {
        // stopping: the sends never started go back, no attempt spent
        await releaseSends(ctx.db, queue, owner);
        await ctx.checkpoint();
      }
      const c = await counts(ctx.db, id);
      await ctx.progress(c.done, c.total);
    }
    return tally;
  },
};

/** Every 2 s: a delivery job for each notification with a send due and no job on it. */
export const deliverTicker: Ticker = {
  name: DELIVER_KIND,
  everySeconds: 2,
  async run({ db, now, enqueue }) {
    for (const id of await dueNotifications(db, now())) {
      await db.tx((q) => ensureDeliverJob(q, enqueue, id));
    }
  },
};
