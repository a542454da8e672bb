// @db once
/**
 * Mail accounts (spec §7): `GET shop/mail-account/list` with page_size 1000 feeds the mail-account
 * pickers of the material and mail-session lists, whose `mail_account_id` filter keeps the rows
 * of that account's shop; `GET user/shop-mail-list` lists one merchant user's shops with their
 * mail accounts (the plan-order form's shop picker).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
let userId: number;
let shopA: number;
let shopB: number;
let accountA: number;
let accountB: number;

const one = async (sql: string, p: unknown[]) => (await s.db.query<{ id: number }>(`${sql} RETURNING id`, p)).rows[0].id;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  userId = await one(`INSERT INTO merchant_user (name, email) VALUES ('Mail owner', 'owner@mail-test.example.com')`, []);
  shopA = await one(`INSERT INTO shop (name, type, user_id) VALUES ('Mail shop A', 1, $1)`, [userId]);
  shopB = await one(`INSERT INTO shop (name, type, user_id) VALUES ('Mail shop B', 1, $1)`, [userId]);
  accountA = await one(`INSERT INTO mail_account (shop_id, email) VALUES ($1, 'support@shop-a.example.com')`, [shopA]);
  await one(`INSERT INTO mail_account (shop_id, email) VALUES ($1, 'sales@shop-a.example.com')`, [shopA]);
  accountB = await one(`INSERT INTO mail_account (shop_id, email) VALUES ($1, 'help@shop-b.example.com')`, [shopB]);
  for (const [shop, subject] of [[shopA, 'Parcel late A'], [shopA, 'Refund A'], [shopB, 'Size B']] as const) {
    await s.db.query(`INSERT INTO learn_material (shop_id, subject, question) VALUES ($1, $2, 'q')`, [shop, subject]);
    await s.db.query(`INSERT INTO mail_session (shop_id, subject, customer_email) VALUES ($1, $2, 'c@example.com')`, [shop, subject]);
  }
});
afterAll(async () => {
  await s?.close();
});

describe('mail accounts', () => {
  it('shop/mail-account/list gives a page of up to 1000 accounts, by shop when asked', async () => {
    const all = await admin.ok('GET', 'shop/mail-account/list', { page_size: 1000 });
    expect(all.page_size).toBe(1000);
    expect(all.list.map((x: { email: string }) => x.email)).toEqual(
      expect.arrayContaining(['support@shop-a.example.com', 'sales@shop-a.example.com', 'help@shop-b.example.com']),
    );
    const a = await admin.ok('GET', 'shop/mail-account/list', { page_size: 1000, shop_id: shopA });
    expect(a.list.map((x: { email: string; shop_name: string }) => `${x.shop_name}:${x.email}`)).toEqual([
      'Mail shop A:support@shop-a.example.com',
      'Mail shop A:sales@shop-a.example.com',
    ]);
    expect((await admin.get('shop/mail-account/list', { page_size: 1001 })).body.code).toBe(40001);
  });

  it.each(['learn-material/list', 'mail-session/list'])('%s filters by mail account: the rows of its shop', async (path) => {
    const subjects = async (q: Record<string, unknown>) =>
      ((await admin.ok('GET', path, { page_size: 100, ...q })).list as Array<{ subject: string }>).map((x) => x.subject).sort();
    expect(await subjects({ mail_account_id: accountA })).toEqual(['Parcel late A', 'Refund A']);
    expect(await subjects({ mail_account_id: accountB })).toEqual(['Size B']);
    // combined with another filter, and an account that does not exist matches nothing
    expect(await subjects({ mail_account_id: accountA, keyword: 'refund' })).toEqual(['Refund A']);
    expect(await subjects({ mail_account_id: 99999999 })).toEqual([]);
    const total = (await admin.ok('GET', path, { mail_account_id: accountA })).total;
    expect(total).toBe(2);
    // the filter is not a list column
    const row = (await admin.ok('GET', path, { mail_account_id: accountB })).list[0];
    expect(row).not.toHaveProperty('mail_account_id');
    const bad = await admin.get(path, { mail_account_id: 'abc' });
    expect(bad.body.code).toBe(40001);
    expect(bad.body.msg).toMatch(/mail_account_id/);
  });

  it("user/shop-mail-list lists a merchant user's shops, each with its mail accounts", async () => {
    const shops = await admin.ok('GET', 'user/shop-mail-list', { id: userId });
    expect(shops.map((x: { name: string; mail_accounts: Array<{ email: string }> }) => [x.name, x.mail_accounts.map((m) => m.email)])).toEqual([
      ['Mail shop A', ['support@shop-a.example.com', 'sales@shop-a.example.com']],
      ['Mail shop B', ['help@shop-b.example.com']],
    ]);
    expect((await admin.get('user/shop-mail-list', { id: 99999999 })).body.code).toBe(40004);
    expect((await admin.get('user/shop-mail-list', {})).body.code).toBe(40001);
  });

  it('the pickers follow the page keys: a plan-order holder may read them, an account without a picker page may not', async () => {
    const planOrder = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text.shop.plan_order']);
    expect((await planOrder.get('user/shop-mail-list', { id: userId })).body.code).toBe(10000);
    const none = await s.loginWithKeys(['admin_center', 'admin_center.admin.permission.audit_logs']);
    expect((await none.get('user/shop-mail-list', { id: userId })).body.code).toBe(40003);
    expect((await none.get('shop/mail-account/list', { page_size: 1000 })).body.code).toBe(40003);
  });
});
