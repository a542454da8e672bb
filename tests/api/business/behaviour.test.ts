// @db once
/** Business rules beyond the per-route matrix: notifications, policy copy, lists, plan-order logs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../jobs/until.js';
import { auditMaxId, count, expectFieldError, fingerprint, startBiz, type BizEnv } from './helpers.js';

let env: BizEnv;
beforeAll(async () => {
  env = await startBiz();
});
afterAll(async () => {
  await env?.s.close();
});

describe('notifications', () => {
  it('needs at least one target shop type (please check the store type / 请勾选店铺类型)', async () => {
    const before = await count(env.s, 'notification');
    for (const body of [{ title: 't', content: 'c' }, { title: 't', content: 'c', target_types: [] }]) {
      const r = await env.admin.post('notification/add', body);
      expectFieldError(r, 'target_types');
      expect(r.body.msg).toContain('please check the store type');
      expect(r.body.msg).toContain('请勾选店铺类型');
    }
    expect(await count(env.s, 'notification')).toBe(before);
  });

  it('push reaches every active shop of the target types; a second push needs force; read count is kept', async () => {
    const n = await env.admin.ok('POST', 'notification/add', { title: 'Hi', content: 'c', target_types: [2, 3] });
    expect(n).toMatchObject({ status: 0, push_quantity: 0, target_type_list: [{ id: 2 }, { id: 3 }] });
    expect((await env.admin.ok('POST', 'notification/push', { id: n.id })).status).toBe(2); // pushing: a job writes the deliveries
    const pushed = await until(() => env.admin.ok('GET', 'notification/detail', { id: n.id }), (x) => x.status === 1);
    const reach = (await env.s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM shop WHERE active AND type IN (2, 3)`)).rows[0].n;
    expect(pushed).toMatchObject({ status: 1, push_quantity: reach, push_read_count: 0 });
    expect(pushed.pushed_at).toBeTruthy();

    const before = await fingerprint(env.s, 'notification');
    const again = await env.admin.post('notification/push', { id: n.id });
    expect(again.body.code).toBe(40009);
    expect(await fingerprint(env.s, 'notification')).toBe(before);
    expect((await env.admin.post('notification/update', { id: n.id, title: 'changed' })).body.code).toBe(40009);

    await env.s.db.query(`UPDATE notification_delivery SET read_at = now() WHERE notification_id = $1 AND shop_id IN (SELECT shop_id FROM notification_delivery WHERE notification_id = $1 LIMIT 3)`, [n.id]);
    await env.admin.ok('POST', 'notification/push', { id: n.id, force: true });
    const forced = await until(() => env.admin.ok('GET', 'notification/detail', { id: n.id }), (x) => x.status === 1);
    expect(forced).toMatchObject({ push_quantity: reach, push_read_count: 3 });
  });

  it('target types come with labels', async () => {
    const types = await env.admin.ok('GET', 'notification/target-types');
    expect(types.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4]);
    expect(types[1]).toMatchObject({ label: '抖音', label_en: 'Douyin' });
  });
});

describe('policy/copy', () => {
  it('copies every policy of the source shop in one transaction', async () => {
    const src = env.fx.shopId;
    const dst = (await env.s.db.query<{ id: number }>(`SELECT id FROM shop WHERE id NOT IN (SELECT shop_id FROM policy) ORDER BY id LIMIT 1`)).rows[0].id;
    const n = (await env.s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM policy WHERE shop_id = $1`, [src])).rows[0].n;
    const r = await env.admin.ok('POST', 'policy/copy', { source_shop_id: src, target_shop_id: dst });
    expect(r).toEqual({ copied: n, target_shop_id: dst });
    const titles = async (id: number) => (await env.s.db.query<{ title: string }>(`SELECT title FROM policy WHERE shop_id = $1 ORDER BY id`, [id])).rows.map((x) => x.title);
    expect(await titles(dst)).toEqual(await titles(src));
  });

  it('refuses an unknown shop, writing nothing', async () => {
    const before = await fingerprint(env.s, 'policy');
    const a0 = await auditMaxId(env.s);
    expectFieldError(await env.admin.post('policy/copy', { source_shop_id: env.fx.shopId, target_shop_id: 99999999 }), 'target_shop_id');
    expect(await fingerprint(env.s, 'policy')).toBe(before);
    expect(await auditMaxId(env.s)).toBe(a0);
  });
});

describe('lists', () => {
  it('shop-list filters by env and labels prod entries id-name', async () => {
    const prod = await env.admin.ok('GET', 'shop-list', { env: 'prod' });
    expect(prod.length).toBeGreaterThan(0);
    for (const s of prod) expect(s).toMatchObject({ env: 'prod', label: `${s.id}-${s.name}` });
    const dev = await env.admin.ok('GET', 'shop-list', { env: 'dev' });
    for (const s of dev) expect(s.label).toBe(`[dev] ${s.name}`);
    // the picker tells look-alike shops apart: type and customer (merchant user) name (issue 26)
    const withUser = await env.s.db.query<{ id: number; customer: string }>(
      'SELECT s.id, u.name AS customer FROM shop s JOIN merchant_user u ON u.id = s.user_id WHERE s.env = $1 ORDER BY s.id DESC LIMIT 1',
      ['prod'],
    );
    if (withUser.rows[0]) expect(prod.find((s: { id: number }) => s.id === withUser.rows[0].id)).toMatchObject({ customer: withUser.rows[0].customer, type: expect.any(Number) });
    const picker = await env.admin.ok('GET', 'session-area/shop-options', { limit: 5 });
    for (const s of picker) expect(Object.keys(s)).toEqual(expect.arrayContaining(['id', 'label', 'type', 'customer']));
  });

  it('page_size defaults to 10; exact totals on small tables; sorting; ranges; keyword', async () => {
    const all = await env.admin.ok('GET', 'order/list');
    expect(all).toMatchObject({ page: 1, page_size: 10 });
    expect(all.list).toHaveLength(10);
    expect(all.total).toBe(await count(env.s, 'shop_order'));
    expect(all.total_estimated).toBeUndefined();
    const times = all.list.map((o: { created_at: string }) => o.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.list[0].raw).toBeUndefined();

    const asc = await env.admin.ok('GET', 'order/list', { sort_by: 'amount', sort_order: 'asc', page_size: 20 });
    const amounts = asc.list.map((o: { amount: number }) => o.amount);
    expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);

    const ranged = await env.admin.ok('GET', 'order/list', { amount_from: 100, amount_to: 200, financial_status: 'refunded', page_size: 100 });
    for (const o of ranged.list) expect(o).toMatchObject({ financial_status: 'refunded' });
    for (const o of ranged.list) expect(o.amount >= 100 && o.amount <= 200).toBe(true);

    const byEmail = all.list[0].email.toUpperCase();
    const mine = await env.admin.ok('GET', 'order/list', { email: byEmail });
    expect(mine.list.every((o: { email: string }) => o.email.toUpperCase() === byEmail)).toBe(true);

    const detail = await env.admin.ok('GET', 'order/detail', { id: all.list[0].id });
    expect(detail.raw).toMatchObject({ name: all.list[0].name });

    const kw = await env.admin.ok('GET', 'shop/list', { keyword: 'nova' });
    for (const s of kw.list) expect(`${s.name} ${s.link}`.toLowerCase()).toContain('nova');
    const byId = await env.admin.ok('GET', 'shop/list', { keyword: String(env.fx.shopId), sort_by: 'id', sort_order: 'asc', page_size: 100 });
    expect(byId.list.map((s: { id: number }) => s.id)).toContain(env.fx.shopId);

    expectFieldError(await env.admin.get('order/list', { sort_by: 'raw' }), 'sort_by');
    expectFieldError(await env.admin.get('order/list', { created_at_from: 'yesterday' }), 'created_at_from');
    expectFieldError(await env.admin.get('order/list', { page_size: 101 }), 'page_size');
  });

  it('user search by id prefix is limited to 100', async () => {
    const r = await env.admin.ok('GET', 'user/search-by-id', { id: '1' });
    expect(r.length).toBeLessThanOrEqual(100);
    expect(r.length).toBeGreaterThan(10);
    expect(r[0].id).toBe(1);
  });
});

describe('plan orders', () => {
  it('create assigns an order number and logs; update logs the changed fields', async () => {
    const shop = (await env.s.db.query<{ id: number; user_id: number }>(`SELECT id, user_id FROM shop WHERE user_id IS NOT NULL ORDER BY id LIMIT 1`)).rows[0];
    const o = await env.admin.ok('POST', 'plan-order/create', {
      user_id: shop.user_id, shop_id: shop.id, plan_id: env.fx.planId, amount: 99, start_at: '2026-11-01T00:00:00Z', end_at: '2027-11-01T00:00:00Z',
    });
    await env.admin.ok('POST', 'plan-order/update', { id: o.id, status: 1, remark: 'paid by wire' });
    const log = await env.admin.ok('GET', 'plan-order/log-info', { id: o.id });
    expect(log.list.map((l: { action: string }) => l.action)).toEqual(['update', 'create']);
    expect(log.list[0].changes).toMatchObject({ status: { from: 0, to: 1 }, remark: { from: '', to: 'paid by wire' } });
    expect(log.list[0].operator_name).toBeTruthy();
  });

  it('a shop of another user is refused', async () => {
    const other = (await env.s.db.query<{ id: number }>(`SELECT id FROM shop WHERE user_id <> $1 ORDER BY id LIMIT 1`, [env.fx.userId])).rows[0].id;
    expectFieldError(
      await env.admin.post('plan-order/create', { user_id: env.fx.userId, shop_id: other, plan_id: env.fx.planId, amount: 1, start_at: '2026-11-01T00:00:00Z', end_at: '2026-12-01T00:00:00Z' }),
      'shop_id',
    );
  });
});

describe('OpenAPI', () => {
  it('lists the business routes with their schemas', async () => {
    const res = await fetch(`${env.s.url}/api/docs/json`);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { parameters?: unknown[]; requestBody?: unknown; responses?: unknown }>> };
    expect(doc.paths['/api/admin/shop/list'].get.parameters?.length).toBeGreaterThan(5);
    expect(doc.paths['/api/admin/notification/add'].post.requestBody).toBeTruthy();
    expect(doc.paths['/api/admin/learn-doc/create'].post).toBeTruthy();
    expect(doc.paths['/api/admin/shop/douyin-shop-policy-product/check-product-exists'].post.responses).toBeTruthy();
  });
});
