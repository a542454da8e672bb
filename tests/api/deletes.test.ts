// @db both — dependency checks and deletes in one transaction (locks, foreign keys); task batch actions (savepoints per row)
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

  it('the voice "customer shops" edit key adds and edits shops, audited; its view key alone cannot (issue 26)', async () => {
    const editor = await s.loginWithKeys(['intelligent_voice', 'intelligent_voice.voice.customer.list', 'intelligent_voice.voice.customer.list.edit']);
    const made = await editor.ok('POST', 'shop/create', { name: `Voice shop ${++seq}`, type: 1 });
    const renamed = await editor.ok('POST', 'shop/update', { id: made.id, name: `Voice shop renamed ${seq}` });
    expect(renamed.name).toBe(`Voice shop renamed ${seq}`);
    expect(await count(`SELECT count(*)::int AS n FROM audit_logs WHERE resource = 'shop' AND action IN ('create', 'update') AND target_id = $1`, [String(made.id)])).toBe(2);
    const viewer = await s.loginWithKeys(['intelligent_voice', 'intelligent_voice.voice.customer.list']);
    expect((await viewer.post('shop/create', { name: 'Not allowed', type: 1 })).body.code).toBe(40003);
    expect((await viewer.post('shop/update', { id: made.id, name: 'Not allowed' })).body.code).toBe(40003);
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

/**
 * Batch actions on the task lists (issue 26): `POST <task list>/batch` applies start / pause /
 * stop / delete to the selected ids or to every row a list filter matches (at most 500), each
 * row on its own: the rows the action refuses are reported per row, the others done.
 */
describe('task list batch actions', () => {
  const one = async (sql: string, params: unknown[] = []) => Number((await s.db.query<{ id: number }>(sql, params)).rows[0].id);
  const statusOf = async (table: string, id: number) => (await s.db.query<{ status: string }>(`SELECT status FROM ${table} WHERE id = $1`, [id])).rows[0]?.status;
  const textTasks = async (table: 'text_task' | 'text_rating_task', tag: string, statuses: string[]) => {
    const ds = await one(`INSERT INTO ${table === 'text_task' ? 'text_dataset' : 'text_rating_dataset'} (name) VALUES ($1) RETURNING id`, [`${tag} set`]);
    const ids: number[] = [];
    for (const [i, st] of statuses.entries()) ids.push(await one(`INSERT INTO ${table} (name, dataset_id, prompt, status) VALUES ($1, $2, 'p', $3) RETURNING id`, [`${tag} ${i}`, ds, st]));
    return ids;
  };

  it('stops the test tasks that can stop and reports the finished one per row, audited, in the caller language', async () => {
    const [pending, running, finished] = await textTasks('text_task', 'Batchstop', ['pending', 'running', 'finished']);
    const r = await admin.ok('POST', 'script-task/batch', { action: 'stop', ids: [pending, running, finished] });
    expect(r).toMatchObject({ action: 'stop', total: 3, done: 2, refused: 1 });
    expect(r.results.filter((x: { ok: boolean }) => x.ok).map((x: { id: number }) => x.id)).toEqual([pending, running]);
    const no = r.results.find((x: { id: number }) => x.id === finished);
    expect(no).toMatchObject({ ok: false, code: 40009 });
    expect(no.msg).toMatch(BILINGUAL); // no language asked: both
    expect([await statusOf('text_task', pending), await statusOf('text_task', running), await statusOf('text_task', finished)]).toEqual(['stopped', 'stopped', 'finished']);
    expect(await count(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'stop' AND target_id = ANY($1::text[])`, [[pending, running].map(String)])).toBe(2);
    const zh = await admin.request('POST', 'script-task/batch', { body: { action: 'stop', ids: [finished] }, headers: { 'x-lang': 'zh-CN' } });
    expect(zh.body.data.results[0].msg).toBe('当前状态不允许该操作');
  });

  it('deletes every rating task a filter matches except the running one, which is reported', async () => {
    const [a, b, run] = await textTasks('text_rating_task', 'Batchfilter', ['pending', 'stopped', 'running']);
    const other = (await textTasks('text_rating_task', 'Otherrow', ['pending']))[0];
    const r = await admin.ok('POST', 'rating-task/batch', { action: 'delete', filter: { keyword: 'Batchfilter' } });
    expect(r).toMatchObject({ total: 3, done: 2, refused: 1 });
    expect(r.results.find((x: { id: number }) => x.id === run)).toMatchObject({ ok: false, code: 40009 });
    expect(await statusOf('text_rating_task', a)).toBeUndefined();
    expect(await statusOf('text_rating_task', b)).toBeUndefined();
    expect(await statusOf('text_rating_task', run)).toBe('running');
    expect(await statusOf('text_rating_task', other)).toBe('pending'); // outside the filter: untouched
  });

  it('acts on call tasks and lab train tasks, reporting a row that is gone', async () => {
    const scene = await one("INSERT INTO voice_scene (name, voice_provider) VALUES ('Batch scene', 'mock') RETURNING id");
    const call = async (st: string) =>
      one("INSERT INTO call_task (name, scene_id, number_ids, mode, status, window_start, latest_call_time) VALUES ('Batch call', $1, '{}', 'manual', $2, '00:00', '23:59') RETURNING id", [scene, st]);
    const [p, f] = [await call('pausing'), await call('finished')];
    const r = await admin.ok('POST', 'call-center/task/batch', { action: 'stop', ids: [p, f, 2147483000] });
    expect(r).toMatchObject({ done: 1, refused: 2 });
    expect(r.results.map((x: { code?: number }) => x.code)).toEqual([undefined, 40009, 40004]);
    expect(await statusOf('call_task', p)).toBe('stopped');

    const ds = await one("INSERT INTO lab_dataset (name) VALUES ('Batch lab set') RETURNING id");
    const lab = async (st: string) => one("INSERT INTO lab_train_task (name, dataset_id, base_model, status) VALUES ('Batch lab', $1, 'base', $2) RETURNING id", [ds, st]);
    const [lp, lr] = [await lab('pending'), await lab('running')];
    const d = await admin.ok('POST', 'lab/train-task/batch', { action: 'delete', ids: [lp, lr] });
    expect(d).toMatchObject({ done: 1, refused: 1 });
    expect(await statusOf('lab_train_task', lp)).toBeUndefined();
    expect(await statusOf('lab_train_task', lr)).toBe('running');
  });

  it('refuses bad input naming the field, and a filter matching more than 500 rows, doing nothing', async () => {
    const [id] = await textTasks('text_task', 'Batchbad', ['pending']);
    for (const body of [{ action: 'stop' }, { action: 'stop', ids: [id], filter: {} }, { action: 'explode', ids: [id] }, { action: 'stop', ids: [] }, { action: 'stop', filter: { nope: 1 } }]) {
      const r = await admin.post('script-task/batch', body);
      expect(r.status, JSON.stringify(body)).toBeLessThan(500);
      expect(r.body.code, JSON.stringify(body)).toBe(40001);
      expect(r.body.msg).toMatch(/ids|filter|action/);
    }
    const ds = await one("INSERT INTO text_dataset (name) VALUES ('Batchcap set') RETURNING id");
    await s.db.query("INSERT INTO text_task (name, dataset_id, prompt, status) SELECT 'Batchcap ' || g, $1, 'p', 'pending' FROM generate_series(1, 501) g", [ds]);
    const r = await admin.post('script-task/batch', { action: 'stop', filter: { keyword: 'Batchcap' } });
    expect(r.body.code).toBe(40001);
    expect(r.body.msg).toMatch(/filter: more than 500 rows match/);
    expect(await count("SELECT count(*)::int AS n FROM text_task WHERE name LIKE 'Batchcap %' AND status = 'pending'")).toBe(501);
    expect(await statusOf('text_task', id)).toBe('pending');
  });
});
