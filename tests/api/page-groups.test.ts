// @db once
/**
 * The page groups of spec section 2 built for issue 14 (docs/modules/page-groups.md), on a real
 * server and database:
 * - template management (`reply-template/*`): the defaults of migration 0020 are listed; create,
 *   update and delete each need their own key, are validated (40001 naming the field, nothing
 *   written) and audited;
 * - sync message and log: `POST shop/sync` starts a shop.sync job (audited); an authorized shop's
 *   sync finishes with its figures, a shop without authorization fails with the reason and advice;
 *   the log and the result pages' detail show both;
 * - renew detail, policy versions, session dialogue and an AI reply's extra data;
 * - every route refuses an account without its keys (40003).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';
import { expectFieldError, expectOk } from './business/helpers.js';
import { until } from './jobs/until.js';

const T = 'intelligent_text.text';
const TPL = `${T}.merchant_notice.template`;

let s: TestServer;
let admin: ApiClient;
let outsider: ApiClient;
let authorizedShop = 0;
let unauthorizedShop = 0;
let sessionId = 0;
let aiMessageId = 0;
let policyId = 0;
let firstOrder = 0;
let renewalOrder = 0;

const q = async (sql: string, params: unknown[] = []) => (await s.db.query<{ id: number }>(sql, params)).rows;
const count = async (sql: string, params: unknown[] = []) => Number((await s.db.query<{ n: number }>(sql, params)).rows[0].n);
const audits = (resource: string, action: string) =>
  count(`SELECT count(*)::int AS n FROM audit_logs WHERE resource = $1 AND action = $2`, [resource, action]);

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  outsider = await s.loginWithKeys(['admin_center.admin.auth_center.audit_logs']);
  const user = (await q(`INSERT INTO merchant_user (name, email) VALUES ('Renew Merchant', 'renew@example.com') RETURNING id`))[0].id;
  authorizedShop = (await q(`INSERT INTO shop (name, type, user_id, authorize_status) VALUES ('Synced shop', 1, $1, 1) RETURNING id`, [user]))[0].id;
  unauthorizedShop = (await q(`INSERT INTO shop (name, type, authorize_status) VALUES ('Unauthorized shop', 1, 0) RETURNING id`))[0].id;
  policyId = (await q(`INSERT INTO policy (shop_id, title, content, source_type, channel) VALUES ($1, 'Returns', 'Returns are accepted within 30 days.', 1, 'chat') RETURNING id`, [authorizedShop]))[0].id;
  const now = Date.now();
  sessionId = (await q(`INSERT INTO chat_session (shop_id, customer_name, message_count, started_at) VALUES ($1, 'Ann', 4, $2) RETURNING id`, [authorizedShop, new Date(now - 3_600_000)]))[0].id;
  const at = (k: number) => new Date(now - 3_600_000 + k * 1000);
  await q(`INSERT INTO chat_message (session_id, msg_type, sender, content, sent_at) VALUES ($1, 5, 'system', 'Ann entered the chat', $2)`, [sessionId, at(0)]);
  await q(`INSERT INTO chat_message (session_id, msg_type, sender, content, sent_at) VALUES ($1, 1, 'Ann', 'Can I return my shoes?', $2)`, [sessionId, at(10)]);
  aiMessageId = (
    await q(`INSERT INTO chat_message (session_id, msg_type, sender, content, policy_id, sent_at) VALUES ($1, 2, 'AI', 'Yes, within 30 days.', $2, $3) RETURNING id`, [sessionId, policyId, at(12)])
  )[0].id;
  await q(`INSERT INTO chat_message (session_id, msg_type, sender, content, sent_at) VALUES ($1, 4, 'Agent Lisa', 'Anything else?', $2)`, [sessionId, at(20)]);
  const plan = (await q(`INSERT INTO plan (name, price) VALUES ('Basic', 29) RETURNING id`))[0].id;
  firstOrder = (
    await q(`INSERT INTO plan_order (order_no, user_id, shop_id, plan_id, amount, status, start_at, end_at) VALUES ('PO-1', $1, $2, $3, 29, 2, '2026-01-01', '2026-02-01') RETURNING id`, [user, authorizedShop, plan])
  )[0].id;
  renewalOrder = (
    await q(`INSERT INTO plan_order (order_no, user_id, shop_id, plan_id, amount, status, start_at, end_at) VALUES ('PO-2', $1, $2, $3, 29, 1, '2026-02-04', '2026-03-04') RETURNING id`, [user, authorizedShop, plan])
  )[0].id;
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('template management', () => {
  it('lists the default templates of the migration', async () => {
    const d = await admin.ok('GET', 'reply-template/list', { page_size: 50 });
    expect(d.total).toBeGreaterThanOrEqual(5);
    expect(d.list.map((r: { kind: string }) => r.kind)).toEqual(expect.arrayContaining(['reply', 'notification']));
  });

  it('creates, updates and deletes with their own keys, audited', async () => {
    const viewer = await s.loginWithKeys([TPL]);
    const adder = await s.loginWithKeys([`${TPL}.add`]);
    const editor = await s.loginWithKeys([`${TPL}.update`]);
    const deleter = await s.loginWithKeys([`${TPL}.delete`]);
    const body = { name: 'Refund done', kind: 'reply', channel: 'chat', language: 'en-US', content: 'Your refund of {{amount}} is on its way.', shop_id: authorizedShop };
    expect((await viewer.post('reply-template/create', body)).body.code).toBe(40003);
    const created = await adder.post('reply-template/create', body);
    expectOk(created, 'create');
    const id = Number(created.body.data.id);
    expect(await audits('reply_template', 'create')).toBe(1);
    const detail = await viewer.ok('GET', 'reply-template/detail', { id });
    expect(detail).toMatchObject({ name: 'Refund done', shop_name: 'Synced shop', status: 1 });
    expectOk(await editor.post('reply-template/update', { id, status: 0 }), 'update');
    expect((await viewer.ok('GET', 'reply-template/detail', { id })).status).toBe(0);
    expect(await audits('reply_template', 'update')).toBe(1);
    expect((await editor.post('reply-template/delete', { id })).body.code).toBe(40003);
    expectOk(await deleter.post('reply-template/delete', { id }), 'delete');
    expect(await audits('reply_template', 'delete')).toBe(1);
  });

  it("keeps a shop with templates from being deleted (its templates are named)", async () => {
    const shopId = (await q(`INSERT INTO shop (name, type) VALUES ('Shop with a template', 1) RETURNING id`))[0].id;
    expectOk(await admin.post('reply-template/create', { name: 'Hi', kind: 'reply', content: 'Hello!', shop_id: shopId }), 'create');
    const r = await admin.post('shop/delete', { id: shopId });
    expect(r.body.code).toBe(40009);
    expect(r.body.msg).toContain('templates');
    expect(await count(`SELECT count(*)::int AS n FROM shop WHERE id = $1`, [shopId])).toBe(1);
  });

  it('refuses bad input naming the field, writing nothing', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM reply_template`);
    expectFieldError(await admin.post('reply-template/create', { name: 'x', kind: 'reply', content: '' }), 'content');
    expectFieldError(await admin.post('reply-template/create', { name: 'x', kind: 'other', content: 'y' }), 'kind');
    expectFieldError(await admin.post('reply-template/create', { name: 'x', kind: 'notification', channel: 'email', content: 'y' }), 'subject');
    expectFieldError(await admin.post('reply-template/create', { name: 'x', kind: 'reply', content: 'y', shop_id: 999999 }), 'shop_id');
    expect(await count(`SELECT count(*)::int AS n FROM reply_template`)).toBe(before);
  });
});

describe('sync message and log', () => {
  const syncLog = async () => (await admin.ok('GET', 'shop-sync/list', { page_size: 50 })).list as Array<Record<string, unknown>>;

  it('syncs an authorized shop: the job finishes with its figures, the result page reads them', async () => {
    const syncer = await s.loginWithKeys([`${T}.shop.list.sync`]);
    const r = await syncer.post('shop/sync', { shop_id: authorizedShop, scope: 'messages', days: 7 });
    expectOk(r, 'sync');
    const jobId = Number(r.body.data.job_id);
    expect(await audits('shop', 'sync')).toBe(1);
    const row = await until(syncLog, (l) => l.some((x) => x.id === jobId && x.state === 'done'));
    expect(row.find((x) => x.id === jobId)).toMatchObject({ shop_id: authorizedShop, shop_name: 'Synced shop', scope: 'messages', chat_sessions: 1, chat_messages: 4, orders: null });
    const resultPage = await s.loginWithKeys([`${T}.shop.sync_log.success`]);
    const d = await resultPage.ok('GET', 'shop-sync/detail', { id: jobId });
    expect(d.succeeded).toBe(true);
    expect(d.summary).toContain('1 chat sessions (4 messages)');
    expect(d.summary).toContain(' / ');
  });

  it('fails a shop without authorization at once, with the reason and what to do', async () => {
    const r = await admin.post('shop/sync', { shop_id: unauthorizedShop, scope: 'all', days: 30 });
    expectOk(r, 'sync');
    const jobId = Number(r.body.data.job_id);
    await until(syncLog, (l) => l.some((x) => x.id === jobId && x.state === 'failed'));
    const d = await admin.ok('GET', 'shop-sync/detail', { id: jobId });
    expect(d).toMatchObject({ succeeded: false, state: 'failed', attempts: 1 });
    expect(d.last_error).toContain('not authorized the platform');
    expect(d.summary).toBe(d.last_error);
    expect(d.advice).toContain('authorize');
    const filtered = await admin.ok('GET', 'shop-sync/list', { shop_id: unauthorizedShop, state: 'failed' });
    expect(filtered.list.map((x: { id: number }) => x.id)).toEqual([jobId]);
  });

  it('validates the start: shop, scope and days; nothing is queued', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM work_job WHERE kind = 'shop.sync'`);
    expectFieldError(await admin.post('shop/sync', { shop_id: 999999 }), 'shop_id');
    expectFieldError(await admin.post('shop/sync', { shop_id: authorizedShop, days: 0 }), 'days');
    expectFieldError(await admin.post('shop/sync', { shop_id: authorizedShop, scope: 'everything' }), 'scope');
    expectFieldError(await admin.post('shop/sync', {}), 'shop_id');
    expect(await count(`SELECT count(*)::int AS n FROM work_job WHERE kind = 'shop.sync'`)).toBe(before);
    expect((await admin.get('shop-sync/detail', { id: 999999 })).body.code).toBe(40004);
  });
});

describe('renew detail and the modals', () => {
  it('shows an order with the order it renews, and a first order as such', async () => {
    const renew = await s.loginWithKeys([`${T}.shop.plan_order.renew`]);
    const d = await renew.ok('GET', 'plan-order/renew-detail', { id: renewalOrder });
    expect(d).toMatchObject({ order_no: 'PO-2', renewal_kind: 'same_plan', previous_id: firstOrder, previous_order_no: 'PO-1', gap_days: 3, plan_name: 'Basic', user_name: 'Renew Merchant' });
    const first = await renew.ok('GET', 'plan-order/renew-detail', { id: firstOrder });
    expect(first).toMatchObject({ renewal_kind: 'first', previous_id: null });
    expect(first.previous_note).toContain(' / ');
  });

  it("lists a policy's versions: the current one, then each recorded change", async () => {
    expectOk(await admin.post('shop/policy/update', { id: policyId, content: 'Returns are accepted within 60 days.' }), 'update');
    const d = await admin.ok('GET', 'policy/versions', { id: policyId });
    expect(d.total).toBe(2);
    expect(d.list.map((v: { version: number; action: string }) => [v.version, v.action])).toEqual([[2, 'current'], [1, 'update']]);
    expect(d.list[0].changes.content).toBe('Returns are accepted within 60 days.');
  });

  it("shows a session's dialogue with roles and times", async () => {
    const d = await admin.ok('GET', 'session/dialogue', { id: sessionId });
    expect(d.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'customer', 'ai', 'agent']);
    expect(d.messages.map((m: { offset_ms: number }) => m.offset_ms)).toEqual([0, 10000, 12000, 20000]);
    expect(d.shop_name).toBe('Synced shop');
  });

  it("shows an AI reply's question, cited knowledge, latency and estimated tokens", async () => {
    const fb = await s.loginWithKeys([`${T}.session.feedback`]);
    const d = await fb.ok('GET', 'session/message-extra', { id: aiMessageId });
    expect(d).toMatchObject({ question: 'Can I return my shoes?', latency_ms: 2000, policy_id: policyId, policy_title: 'Returns', tokens_estimated: true, responder: 'ai' });
    expect(d.total_tokens).toBe(d.prompt_tokens + d.completion_tokens);
    expect(d.completion_tokens).toBeGreaterThan(0);
    expect((await fb.get('session/message-extra', { id: 999999 })).body.code).toBe(40004);
  });
});

describe('access', () => {
  it('refuses every route to an account without its keys', async () => {
    const gets: Array<[string, Record<string, unknown>]> = [
      ['reply-template/list', {}],
      ['shop-sync/list', {}],
      ['shop-sync/detail', { id: 1 }],
      ['plan-order/renew-detail', { id: renewalOrder }],
      ['policy/versions', { id: policyId }],
      ['session/dialogue', { id: sessionId }],
      ['session/message-extra', { id: aiMessageId }],
    ];
    for (const [p, query] of gets) expect((await outsider.get(p, query)).body.code, p).toBe(40003);
    expect((await outsider.post('shop/sync', { shop_id: authorizedShop })).body.code).toBe(40003);
    expect((await outsider.post('reply-template/create', { name: 'x', kind: 'reply', content: 'y' })).body.code).toBe(40003);
  });
});
