// @db both — dependency checks and deletes in one transaction (locks, foreign keys)
/**
 * Deletes of shops, customers, plans, plan orders and Douyin products (issue 14): refused with
 * 40009 naming what still depends on the row (nothing cascades through business data), single
 * and in batch (all or nothing), audited, and under the edit keys of each page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
const BILINGUAL = / \/ .*[\u4e00-\u9fff]/u;

const count = async (sql: string, params: unknown[] = []) => (await s.db.query<{ n: number }>(sql, params)).rows[0].n;
const exists = async (table: string, id: number) => (await count(`SELECT count(*)::int AS n FROM ${table} WHERE id = $1`, [id])) === 1;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => {
  await s?.close();
});

let seq = 0;
const customer = async () => (await admin.ok('POST', 'customer/create', { name: `Delete test ${++seq}`, email: `delete.${seq}.${Date.now()}@example.com` })).id as number;
const shop = async (userId?: number) => (await admin.ok('POST', 'shop/create', { name: `Delete shop ${++seq}`, type: 1, ...(userId ? { user_id: userId } : {}) })).id as number;
const plan = async () => (await admin.ok('POST', 'plan/create', { name: `Plan ${++seq}`, product: 'text', period: 'month', price: 9, currency: 'USD' })).id as number;
const planOrder = async (userId: number, shopId: number, planId: number) =>
  (await admin.ok('POST', 'plan-order/create', { user_id: userId, shop_id: shopId, plan_id: planId, amount: 9, start_at: '2026-11-01T00:00:00Z', end_at: '2026-12-01T00:00:00Z' }))
    .id as number;

describe('single deletes', () => {
  it('a shop with no business rows goes, audited; one with orders is refused naming them, and stays whole', async () => {
    const free = await shop();
    expect((await admin.post('shop/delete', { id: free })).body.code).toBe(10000);
    expect(await exists('shop', free)).toBe(false);
    expect(await count(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'delete' AND resource = 'shop' AND target_id = $1`, [String(free)])).toBe(1);

    const busy = await shop();
    await s.db.query(`INSERT INTO shop_order (shop_id, name, email, amount, financial_status, fulfillment_status, created_at) VALUES ($1, '#DEL-1', 'a@example.com', 10, 'paid', 'fulfilled', now()), ($1, '#DEL-2', 'b@example.com', 12, 'paid', 'fulfilled', now())`, [busy]);
    await admin.ok('POST', 'shop/policy/create', { shop_id: busy, title: 'Returns', content: '30 days', source_type: 1, channel: 'chat' });
    const r = await admin.post('shop/delete', { id: busy });
    expect(r.body.code).toBe(40009);
    expect(r.body.msg).toMatch(/orders \(2\)/);
    expect(r.body.msg).toMatch(/policies \(1\)/);
    expect(r.body.msg).toMatch(BILINGUAL);
    expect(await exists('shop', busy)).toBe(true);
    expect(await count('SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1', [busy])).toBe(2);
    // in the client's language when it says which
    const zh = await admin.request('POST', 'shop/delete', { body: { id: busy }, headers: { 'x-lang': 'zh-CN' } });
    expect(zh.body.msg).toMatch(/^无法删除：仍有2 个订单/);
  });

  it('a customer with shops is refused; without, it goes', async () => {
    const u = await customer();
    const sh = await shop(u);
    const r = await admin.post('customer/delete', { id: u });
    expect(r.body.code).toBe(40009);
    expect(r.body.msg).toMatch(/shops \(1\)/);
    await admin.ok('POST', 'shop/delete', { id: sh });
    await admin.ok('POST', 'customer/delete', { id: u });
    expect(await exists('merchant_user', u)).toBe(false);
  });

  it('a plan with orders is refused; an active plan order is refused until cancelled', async () => {
    const u = await customer();
    const sh = await shop(u);
    const p = await plan();
    const o = await planOrder(u, sh, p);
    expect((await admin.post('plan/delete', { id: p })).body.msg).toMatch(/plan orders \(1\)/);
    await admin.ok('POST', 'plan-order/update', { id: o, status: 1 });
    const active = await admin.post('plan-order/delete', { id: o });
    expect(active.body.code).toBe(40009);
    expect(active.body.msg).toMatch(/active/);
    await admin.ok('POST', 'plan-order/update', { id: o, status: 3 });
    await admin.ok('POST', 'plan-order/delete', { id: o });
    expect(await count('SELECT count(*)::int AS n FROM plan_order_log WHERE plan_order_id = $1', [o])).toBe(0);
    await admin.ok('POST', 'plan/delete', { id: p });
    expect(await exists('plan', p)).toBe(false);
  });

  it('a Douyin product goes; a missing id is 40004', async () => {
    const sh = await shop();
    const d = await admin.ok('POST', 'shop/douyin-shop-policy-product/create', { shop_id: sh, product_id: 'DY-DEL-1', title: '保温杯', price: 59.9 });
    await admin.ok('POST', 'shop/douyin-shop-policy-product/delete', { id: d.id });
    expect(await exists('douyin_product', d.id)).toBe(false);
    expect((await admin.post('shop/douyin-shop-policy-product/delete', { id: d.id })).body.code).toBe(40004);
  });

  it('the voice customer keys delete customers; a shop-list viewer cannot delete a shop', async () => {
    const voice = await s.loginWithKeys(['intelligent_voice', 'intelligent_voice.voice.customer.customer_list']);
    const u = await customer();
    expect((await voice.post('customer/delete', { id: u })).body.code).toBe(10000);
    const viewer = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text.shop.list']);
    const sh = await shop();
    expect((await viewer.post('shop/delete', { id: sh })).body.code).toBe(40003);
    expect(await exists('shop', sh)).toBe(true);
  });
});

describe('batch delete', () => {
  it('deletes every row when all may go, one audit row each', async () => {
    const ids = [await shop(), await shop(), await shop()];
    const r = await admin.ok('POST', 'shop/batch-delete', { ids });
    expect(r.ids).toEqual(ids);
    expect(await count('SELECT count(*)::int AS n FROM shop WHERE id = ANY($1::int[])', [ids])).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'delete' AND resource = 'shop' AND target_id = ANY($1::text[])`, [ids.map(String)])).toBe(3);
  });

  it('deletes nothing when one row may not go, naming it by its place in the list', async () => {
    const free = await shop();
    const busy = await shop();
    await s.db.query(`INSERT INTO shop_order (shop_id, name, email, amount, financial_status, fulfillment_status, created_at) VALUES ($1, '#DEL-B', 'c@example.com', 10, 'paid', 'fulfilled', now())`, [busy]);
    const r = await admin.post('shop/batch-delete', { ids: [free, busy, 2147483000] });
    expect(r.body.code).toBe(40009);
    expect(r.body.msg).toMatch(/2 of 3 cannot be deleted, nothing was deleted/);
    const errors = (r.body.data as { errors: Array<{ field: string; message: string }> }).errors;
    expect(errors.map((e) => e.field)).toEqual(['ids[1]', 'ids[2]']);
    expect(errors[0].message).toMatch(/orders \(1\)/);
    expect(errors[1].message).toMatch(/not found/);
    expect(await exists('shop', free)).toBe(true);
    expect(await exists('shop', busy)).toBe(true);
  });

  it('refuses an empty list, duplicates and more than 100 ids naming the field', async () => {
    for (const ids of [[], [5, 5], Array.from({ length: 101 }, (_, i) => i + 1)]) {
      const r = await admin.post('plan/batch-delete', { ids });
      expect(r.body.code, JSON.stringify(ids).slice(0, 20)).toBe(40001);
      expect(r.body.msg).toMatch(/ids/);
    }
  });
});
