// @db both — delivery jobs, leases and retries on each engine
/**
 * Notice delivery (issue 24) against a local webhook receiver and a local SMTP server: a notice
 * reaches both; a failing receiver is tried NOTIFY_MAX_ATTEMPTS times with backoff and then
 * marked failed, with every attempt in the delivery log; the merchant's read call moves the read
 * count; secrets stay write-only; on demo data a shop without a channel gets the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';
import { smtpReceiver, webhookReceiver, type SmtpReceiver, type WebhookReceiver } from './receivers.js';

// the receivers listen on 127.0.0.1: the outbound policy's private-address allowance, as the model stand-ins set it
process.env.OUTBOUND_ALLOW_PRIVATE = '1';
process.env.NOTIFY_MAX_ATTEMPTS = '3';
process.env.NOTIFY_RETRY_BASE_MS = '50';

const SECRET = 'whsec_' + Buffer.from('a test secret of the merchant, 32b').toString('base64');
const SMTP_USER = 'notices@console.test';
const SMTP_PASSWORD = 'smtp-pass-7f3a9c21e5';

let s: TestServer;
let admin: ApiClient;
let hook: WebhookReceiver;
let smtp: SmtpReceiver;

beforeAll(async () => {
  [s, hook, smtp] = await Promise.all([startServer(), webhookReceiver(SECRET), smtpReceiver(SMTP_USER, SMTP_PASSWORD)]);
  admin = await s.login();
  await admin.ok('POST', 'notification/smtp/save', { host: '127.0.0.1', port: smtp.port, username: SMTP_USER, password: SMTP_PASSWORD, from_address: 'Console <notices@console.test>' });
});
afterAll(async () => {
  await Promise.all([s?.close(), hook?.close(), smtp?.close()]);
});

const shop = async (name: string) => (await admin.ok('POST', 'shop/create', { name, type: 4 })).id as number;
const webhook = (shopId: number, path: string) => admin.ok('POST', 'notification/channel/create', { shop_id: shopId, kind: 'webhook', url: `${hook.url}${path}`, secret: SECRET, enabled: true });
const email = (shopId: number, to: string) => admin.ok('POST', 'notification/channel/create', { shop_id: shopId, kind: 'email', email_to: to, enabled: true });

/** pushes a notice to shop type 4 and waits until no send of it is pending */
async function push(title: string) {
  const n = await admin.ok('POST', 'notification/add', { title, content: `${title}: body`, target_types: [4], jump_link: 'https://example.com/n' });
  await admin.ok('POST', 'notification/push', { id: n.id });
  return until(
    () => admin.ok('GET', 'notification/detail', { id: n.id }),
    (d) => d.status === 1 && !d.push_active,
    60_000,
  );
}
const sends = async (id: number) => (await admin.ok('GET', 'notification/send/list', { notification_id: id, page_size: 100 })).list;
const attempts = async (id: number) => (await admin.ok('GET', 'notification/send-attempt/list', { notification_id: id, page_size: 100 })).list;

describe('notice delivery', () => {
  let readToken = '';
  let okNotice = 0;

  it('reaches the webhook receiver (signed) and the SMTP server', async () => {
    const a = await shop('Delivery shop A');
    const ch = await webhook(a, '/ok');
    expect(ch.secret_masked).toMatch(/…/);
    expect(JSON.stringify(ch)).not.toContain(SECRET);
    await email(a, 'merchant-a@shop.test');

    const d = await push('Price change');
    okNotice = d.id;
    expect(d).toMatchObject({ push_quantity: 1, push_delivered_count: 1, push_failed_count: 0, push_read_count: 0, push_sandbox: false });
    const got = hook.hits.filter((h) => h.body.data?.notification_id === d.id);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ path: '/ok', verified: true, first: true });
    expect(got[0].body).toMatchObject({ type: 'notification.published', sandbox: false, data: { shop_id: a, title: 'Price change', content: 'Price change: body', jump_link: 'https://example.com/n' } });
    readToken = got[0].body.data.read_token;
    expect(readToken).toMatch(/^[0-9a-f]{64}$/);

    const mails = smtp.mails.filter((m) => m.subject === 'Price change');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: ['merchant-a@shop.test'], from: 'notices@console.test', user: SMTP_USER });
    const list = await sends(d.id);
    expect(list.map((x: { channel: string; state: string }) => `${x.channel}:${x.state}`).sort()).toEqual(['email:delivered', 'webhook:delivered']);
    const mailSend = list.find((x: { channel: string }) => x.channel === 'email');
    expect(mails[0].messageId).toBe(`<notice-${mailSend.idempotency_key}@backoffice-console>`);
    expect(list.find((x: { channel: string }) => x.channel === 'webhook').idempotency_key).toBe(got[0].id);
    const log = await attempts(d.id);
    expect(log).toHaveLength(2);
    for (const r of log) expect(r).toMatchObject({ attempt: 1, outcome: 'ok' });
    expect(log.map((r: { status_code: number }) => r.status_code).sort()).toEqual([200, 250]);
  });

  it('retries a failing receiver with backoff, then marks it failed with every attempt logged', async () => {
    const b = await shop('Delivery shop B');
    await webhook(b, '/fail');
    const before = hook.hits.length;
    const d = await push('Receiver down');
    // shop A (from the first test) gets this notice too, delivered; shop B's receiver fails
    expect(d).toMatchObject({ push_quantity: 2, push_delivered_count: 1, push_failed_count: 1 });
    const failedHits = hook.hits.slice(before).filter((h) => h.path === '/fail');
    expect(failedHits).toHaveLength(3);
    expect(new Set(failedHits.map((h) => h.id)).size).toBe(1); // the same webhook-id on every attempt
    const send = (await sends(d.id)).find((x: { shop_id: number }) => x.shop_id === b);
    expect(send).toMatchObject({ state: 'failed', attempts: 3, last_status: 500, channel: 'webhook' });
    expect(send.last_error).toContain('HTTP status 500');
    const log = (await attempts(d.id)).filter((r: { send_id: number }) => r.send_id === send.id);
    expect(log.map((r: { attempt: number }) => r.attempt).sort()).toEqual([1, 2, 3]);
    for (const r of log) expect(r).toMatchObject({ outcome: 'error', status_code: 500 });
  });

  it("the merchant's read call marks the delivery read and the read count follows", async () => {
    const anon = s.anon();
    const r = await anon.post('/api/common/merchant/notification/read', { token: readToken });
    expect(r.body.code, r.body.msg).toBe(10000);
    expect(r.body.data).toMatchObject({ notification_id: okNotice, first_read: true, push_read_count: 1 });
    expect((await admin.ok('GET', 'notification/detail', { id: okNotice })).push_read_count).toBe(1);
    expect((await admin.ok('GET', 'notification/list', { page_size: 50 })).list.find((x: { id: number }) => x.id === okNotice).push_read_count).toBe(1);
    expect((await sends(okNotice)).every((x: { read_at: string | null }) => x.read_at)).toBe(true);
    const again = await anon.post('/api/common/merchant/notification/read', { token: readToken });
    expect(again.body.data).toMatchObject({ first_read: false, push_read_count: 1 });
    expect((await anon.post('/api/common/merchant/notification/read', { token: 'f'.repeat(64) })).body.code).toBe(40004);
  });

  it('keeps secrets write-only: encrypted at rest, masked in replies and audit rows', async () => {
    const cfg = await admin.ok('GET', 'notification/smtp');
    expect(cfg).toMatchObject({ configured: true, host: '127.0.0.1', username: SMTP_USER });
    expect(cfg.password_masked).toMatch(/…/);
    const rows = await s.db.query<{ t: string }>(`SELECT (SELECT string_agg(secret_enc, ' ') FROM notification_channel) || ' ' || (SELECT password_enc FROM notification_smtp) AS t`);
    expect(rows.rows[0].t).toMatch(/^v1\./);
    expect(rows.rows[0].t).not.toContain(SMTP_PASSWORD);
    expect(rows.rows[0].t).not.toContain(SECRET);
    const audit = await s.db.query<{ t: string }>(`SELECT coalesce(string_agg(coalesce(before::text, '') || coalesce(after::text, ''), ' '), '') AS t FROM audit_logs WHERE resource IN ('notification_channel', 'notification_smtp')`);
    expect(audit.rows[0].t).toContain('127.0.0.1'); // the rows are there, their secrets are not
    expect(audit.rows[0].t).not.toContain(SMTP_PASSWORD);
    expect(audit.rows[0].t).not.toContain(SECRET);
    // an empty password keeps the stored one
    await admin.ok('POST', 'notification/smtp/save', { host: '127.0.0.1', port: smtp.port, username: SMTP_USER, from_address: 'notices@console.test' });
    expect((await admin.ok('GET', 'notification/smtp')).password_masked).toBe(cfg.password_masked);
  });

  it('refuses a channel that could not work, naming the field', async () => {
    const c = await shop('Delivery shop C');
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await admin.post('notification/channel/create', { shop_id: c, ...body });
      expect(r.body.code, JSON.stringify(r.body)).toBe(40001);
      expect(r.body.msg).toContain(field);
      expect(r.body.msg).toMatch(/ \/ /); // both languages
    };
    await bad({ kind: 'webhook', url: `${hook.url}/ok` }, 'secret');
    await bad({ kind: 'webhook', secret: SECRET }, 'url');
    await bad({ kind: 'webhook', url: 'http://169.254.169.254/latest', secret: SECRET }, 'url');
    await bad({ kind: 'email' }, 'email_to');
    await bad({ kind: 'email', email_to: 'not-an-address' }, 'email_to');
    expect((await admin.post('notification/channel/create', { shop_id: 99999999, kind: 'email', email_to: 'x@y.test' })).body.msg).toContain('shop_id');
    expect((await admin.post('notification/smtp/save', { host: '169.254.169.254', port: 25, from_address: 'a@b.test' })).body.msg).toContain('host');
    // a changed address needs the secret typed again
    const ch = await webhook(c, '/ok');
    expect((await admin.post('notification/channel/update', { id: ch.id, url: `${hook.url}/other` })).body.msg).toContain('secret');
    expect((await admin.ok('POST', 'notification/channel/update', { id: ch.id, name: 'renamed', shop_id: c, kind: 'webhook', secret: '' })).name).toBe('renamed');
    expect((await admin.post('notification/channel/update', { id: ch.id, kind: 'email' })).body.msg).toContain('kind');
    await admin.ok('POST', 'notification/channel/delete', { id: ch.id });
  });

  it('on demo data a shop without a channel gets the sandbox receiver, labelled so', async () => {
    const d0 = await shop('Delivery shop D (no channel)');
    s.config.seedDemo = true; // the push route reads the running app's config: as a server started with demo data
    try {
      const d = await push('Sandbox notice');
      expect(d.push_sandbox).toBe(true);
      const sandboxSend = (await sends(d.id)).find((x: { shop_id: number }) => x.shop_id === d0);
      expect(sandboxSend).toMatchObject({ channel: 'sandbox', sandbox: true, state: 'delivered', last_status: 200, target: 'sandbox://notify-receiver' });
      const inbox = await s.db.query<{ payload: any; received: number }>(`SELECT payload, received FROM notification_sandbox_inbox WHERE send_id = $1`, [sandboxSend.id]);
      expect(inbox.rows).toHaveLength(1);
      expect(inbox.rows[0].payload).toMatchObject({ sandbox: true, data: { title: 'Sandbox notice', shop_id: d0 } });
      // shops with a real channel still get the real one
      expect((await sends(d.id)).filter((x: { channel: string }) => x.channel === 'sandbox').map((x: { shop_id: number }) => x.shop_id)).not.toContain(
        (await s.db.query<{ id: number }>(`SELECT id FROM shop WHERE name = 'Delivery shop A'`)).rows[0].id,
      );
    } finally {
      s.config.seedDemo = false;
    }
  });
});
