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
 * - issue 26: the shop introduction, the customer list's config, note and download modals and the
 *   pro form (onboarding): each with its own key, validated (40001 naming the field, nothing
 *   written) and audited;
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
});

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

describe('issue 26: shop introduction, customer config, notes, download and the pro form', () => {
  const CL = `${T}.shop.customer_list`;
  let customer = 0;
  beforeAll(async () => {
    customer = (await q(`INSERT INTO merchant_user (name, email, country_code) VALUES ('Config Merchant', 'config@example.com', 'DE') RETURNING id`))[0].id;
  });

  it("writes a shop's introduction with its own key, audited; reads it back", async () => {
    const empty = await admin.ok('GET', 'shop/introduction', { id: authorizedShop });
    expect(empty).toMatchObject({ shop_id: authorizedShop, shop_name: 'Synced shop', introduction: '' });
    const writer = await s.loginWithKeys([`${T}.shop.list.introduction`]);
    const before = await audits('shop', 'introduction');
    const saved = await writer.ok('POST', 'shop/introduction/update', { id: authorizedShop, introduction: 'Shoes for runners.', brand: 'Fleet', service_hours: '9-18' });
    expect(saved).toMatchObject({ shop_id: authorizedShop, brand: 'Fleet', introduction: 'Shoes for runners.' });
    await writer.ok('POST', 'shop/introduction/update', { id: authorizedShop, introduction: 'Shoes and socks for runners.' });
    expect(await admin.ok('GET', 'shop/introduction', { id: authorizedShop })).toMatchObject({ introduction: 'Shoes and socks for runners.', brand: '' });
    expect(await audits('shop', 'introduction')).toBe(before + 2);
    expect((await outsider.post('shop/introduction/update', { id: authorizedShop, introduction: 'x' })).body.code).toBe(40003);
  });

  it('refuses a bad introduction naming the field, writing nothing', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM audit_logs`);
    expectFieldError(await admin.post('shop/introduction/update', { id: authorizedShop, introduction: '  ' }), 'introduction');
    expectFieldError(await admin.post('shop/introduction/update', { id: authorizedShop, introduction: 'x'.repeat(2001) }), 'introduction');
    expectFieldError(await admin.post('shop/introduction/update', { id: 999999, introduction: 'x' }), 'id');
    const zh = await admin.request('POST', 'shop/introduction/update', { body: { id: authorizedShop }, headers: { 'x-lang': 'zh-CN' } });
    expectFieldError(zh, 'introduction');
    expect(zh.body.msg).toContain('必填');
    expect(await count(`SELECT count(*)::int AS n FROM audit_logs`)).toBe(before);
  });

  it("saves a customer's config (defaults until then), audited, refusing bad values", async () => {
    expect(await admin.ok('GET', 'customer/config', { id: customer })).toMatchObject({ tier: 'standard', notice_language: 'zh-CN', account_manager: '' });
    const editor = await s.loginWithKeys([`${CL}.config`]);
    const before = await audits('merchant_user', 'config');
    await editor.ok('POST', 'customer/config/update', { id: customer, tier: 'ka', account_manager: 'Mia', invoice_email: 'bills@example.com', notice_language: 'en-US' });
    expect(await admin.ok('GET', 'customer/config', { id: customer })).toMatchObject({ tier: 'ka', account_manager: 'Mia', invoice_email: 'bills@example.com', notice_language: 'en-US' });
    expect(await audits('merchant_user', 'config')).toBe(before + 1);
    expectFieldError(await admin.post('customer/config/update', { id: customer, tier: 'gold', notice_language: 'en-US' }), 'tier');
    expectFieldError(await admin.post('customer/config/update', { id: customer, tier: 'ka', notice_language: 'en-US', invoice_email: 'nope' }), 'invoice_email');
    expectFieldError(await admin.post('customer/config/update', { id: 999999, tier: 'ka', notice_language: 'en-US' }), 'id');
    expect(await audits('merchant_user', 'config')).toBe(before + 1);
    expect((await outsider.get('customer/config', { id: customer })).body.code).toBe(40003);
  });

  it("adds, lists and deletes a customer's notes, signed and audited", async () => {
    const writer = await s.loginWithKeys([`${CL}.note`]);
    const before = await audits('merchant_user', 'note');
    const a = await writer.ok('POST', 'customer/note/create', { user_id: customer, content: 'Wants a yearly plan.' });
    await writer.ok('POST', 'customer/note/create', { user_id: customer, content: 'Call back on Monday.' });
    const l = await writer.ok('GET', 'customer/note/list', { id: customer });
    expect(l.total).toBe(2);
    expect(l.list.map((n: { content: string }) => n.content)).toEqual(['Call back on Monday.', 'Wants a yearly plan.']);
    expect(l.list[0].author).toContain('@');
    expect(await audits('merchant_user', 'note')).toBe(before + 2);
    expectFieldError(await writer.post('customer/note/create', { user_id: customer, content: ' ' }), 'content');
    expectFieldError(await writer.post('customer/note/create', { user_id: 999999, content: 'x' }), 'user_id');
    await writer.ok('POST', 'customer/note/delete', { id: a.id });
    expect((await writer.ok('GET', 'customer/note/list', { id: customer })).total).toBe(1);
    expect((await outsider.post('customer/note/create', { user_id: customer, content: 'x' })).body.code).toBe(40003);
  });

  it('downloads the filtered customers as CSV of the chosen columns, headers in the language, audited', async () => {
    const loader = await s.loginWithKeys([`${CL}.download`]);
    const before = await audits('merchant_user', 'export');
    const r = await loader.request('POST', 'customer/export', { body: { columns: ['id', 'name', 'tier'], country_code: 'DE', status: null, keyword: '' }, headers: { 'x-lang': 'en-US' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    expect(r.headers.get('content-disposition')).toMatch(/filename="customers-\d{8}T\d{6}\.csv"/);
    const lines = r.body.msg.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('ID,Customer name,Tier');
    expect(lines).toContain(`${customer},Config Merchant,ka`);
    expect(lines.every((x: string, i: number) => i === 0 || !x.includes('Renew Merchant'))).toBe(true);
    const zh = await loader.request('POST', 'customer/export', { body: { columns: ['name', 'email'], keyword: 'config@' }, headers: { 'x-lang': 'zh-CN' } });
    expect(zh.body.msg.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('客户名称,邮箱');
    expect(await audits('merchant_user', 'export')).toBe(before + 2);
    expectFieldError(await loader.post('customer/export', { columns: [] }), 'columns');
    expectFieldError(await loader.post('customer/export', { columns: ['password'] }), 'columns.0');
    expect(await audits('merchant_user', 'export')).toBe(before + 2);
    expect((await outsider.post('customer/export', { columns: ['id'] })).body.code).toBe(40003);
  });

  it('onboards a customer with a shop and its introduction in one transaction (the pro form)', async () => {
    const onboarder = await s.loginWithKeys([`${CL}.onboard`]);
    const before = await audits('shop', 'create');
    const body = { name: 'New Merchant', email: 'new.merchant@example.com', country_code: 'FR', shop_name: 'Maison', shop_type: 1, shop_link: 'https://maison.example', introduction: 'French linen.', service_hours: '10-19' };
    const r = await onboarder.ok('POST', 'customer/onboard', body);
    const shop = (await s.db.query<{ user_id: number; country_code: string; creation_source: number }>(`SELECT user_id, country_code, creation_source FROM shop WHERE id = $1`, [r.shop_id])).rows[0];
    expect(shop).toMatchObject({ user_id: r.user_id, country_code: 'FR', creation_source: 0 });
    expect(await admin.ok('GET', 'shop/introduction', { id: r.shop_id })).toMatchObject({ introduction: 'French linen.', service_hours: '10-19' });
    expect(await audits('shop', 'create')).toBe(before + 1);
    // the same e-mail again, a bad type or link: refused naming the field, nothing written
    const users = await count(`SELECT count(*)::int AS n FROM merchant_user`);
    expectFieldError(await onboarder.post('customer/onboard', { ...body, shop_name: 'Other' }), 'email');
    expectFieldError(await onboarder.post('customer/onboard', { ...body, email: 'x@example.com', shop_type: 9 }), 'shop_type');
    expectFieldError(await onboarder.post('customer/onboard', { ...body, email: 'x@example.com', shop_link: 'ftp://x' }), 'shop_link');
    expectFieldError(await onboarder.post('customer/onboard', { ...body, email: 'x@example.com', shop_name: ' ' }), 'shop_name');
    expect(await count(`SELECT count(*)::int AS n FROM merchant_user`)).toBe(users);
    expect((await outsider.post('customer/onboard', { ...body, email: 'y@example.com' })).body.code).toBe(40003);
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
