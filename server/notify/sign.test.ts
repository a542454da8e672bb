/** The webhook signature scheme (Standard Webhooks / Svix): what a receiver accepts and refuses. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signHeaders, verifyWebhook } from './sign.js';

const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const body = '{"type":"notification.published","data":{"title":"Hi"}}';
const now = new Date('2026-11-27T12:00:00Z');

describe('webhook signatures', () => {
  it('signs id.timestamp.body with HMAC-SHA256 of the decoded whsec_ key, as Standard Webhooks does', () => {
    const h = signHeaders(secret, 'msg_1', body, now);
    const want = createHmac('sha256', Buffer.from('0123456789abcdef0123456789abcdef')).update(`msg_1.${h['webhook-timestamp']}.${body}`).digest('base64');
    expect(h['webhook-signature']).toBe(`v1,${want}`);
    expect(h['idempotency-key']).toBe('msg_1');
    expect(verifyWebhook(secret, { ...h }, body, now)).toEqual({ ok: true, id: 'msg_1' });
  });

  it('refuses a changed body, id or timestamp, another secret, a stale or missing timestamp', () => {
    const h = signHeaders(secret, 'msg_2', body, now);
    expect(verifyWebhook(secret, { ...h }, body.replace('Hi', 'Ho'), now)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyWebhook(secret, { ...h, 'webhook-id': 'msg_3' }, body, now)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyWebhook(secret, { ...h, 'webhook-timestamp': String(Number(h['webhook-timestamp']) + 1) }, body, now)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyWebhook('another-secret-of-16+', { ...h }, body, now)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyWebhook(secret, { ...h }, body, new Date(now.getTime() + 301_000))).toMatchObject({ ok: false, reason: 'stale' });
    expect(verifyWebhook(secret, { 'webhook-id': 'x', 'webhook-signature': h['webhook-signature'] }, body, now)).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('accepts any of several signatures (a secret being rotated) and a plain-text secret', () => {
    const h = signHeaders('plain text secret 123', 'msg_4', body, now);
    expect(verifyWebhook('plain text secret 123', { ...h, 'webhook-signature': `v1,bm90IGl0 ${h['webhook-signature']}` }, body, now).ok).toBe(true);
  });
});
