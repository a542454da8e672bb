// @db both — paged writes with their cursor in one transaction, the queue, text search
/**
 * Shopify sync against a local Admin GraphQL emulator the test starts (issue 24): connecting a
 * shop stores its token encrypted and never returns it; a full sync of 1,050 products over
 * eleven pages, with a THROTTLED reply in the middle, waits it out, asks for the same page again
 * and completes — every product, order and policy written once; a second sync asks only for what
 * changed (counted at the emulator) and reports it as changed; the synced refund policy is found
 * by hit testing; a refused token fails the sync at once without the token in the error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillOrders, fillPolicies, fillProducts, newStore, type EmulatorStore } from '../../../server/shops/shopify/emulator.js';
import { until } from '../jobs/until.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { startEmulator, type EmulatorServer } from './emulator-server.js';

const DOMAIN = 'big-shop.myshopify.com';
const TOKEN = 'shpat_0123456789abcdef0123456789abcdef';
const SECRET = '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';
let emu: EmulatorServer;
let store: EmulatorStore;
let s: TestServer;
let admin: ApiClient;
let shopId: number;

const one = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await s.db.query<T & Record<string, unknown>>(sql, params)).rows[0];
const n = async (sql: string, params: unknown[] = []) => Number((await one<{ n: number }>(sql, params)).n);

async function syncAndWait(body: Record<string, unknown>): Promise<Record<string, any>> {
  const { job_id: jobId } = await admin.ok('POST', 'shop/sync', body);
  await until(
    async () => (await admin.ok('GET', 'shop-sync/detail', { id: jobId })) as Record<string, any>,
    (d) => ['done', 'failed', 'cancelled'].includes(d.state),
    120_000,
  );
  return (await admin.ok('GET', 'shop-sync/detail', { id: jobId })) as Record<string, any>;
}

beforeAll(async () => {
  store = newStore(DOMAIN, TOKEN, { max: 1000, rate: 1000 });
  fillProducts(store, 1050);
  fillOrders(store, 120, Date.now() - 3_600_000);
  fillPolicies(store);
  emu = await startEmulator([store]);
  process.env.SHOPIFY_ADMIN_BASE_URL = emu.url;
  s = await startServer({ config: { outboundAllowPrivate: true } });
  admin = await s.login();
  shopId = Number((await one<{ id: number }>(`INSERT INTO shop (name, type, authorize_status) VALUES ('Big shop', 1, 0) RETURNING id`)).id);
});

afterAll(async () => {
  delete process.env.SHOPIFY_ADMIN_BASE_URL;
  await s?.close();
  await emu?.close();
});

describe('connecting a Shopify shop', () => {
  it('refuses a domain that is not *.myshopify.com, and shop types without an adapter, naming the field', async () => {
    for (const d of ['evil.example.com', 'big-shop.myshopify.com.evil.io', 'http://127.0.0.1', '']) {
      const r = await admin.post('shop/connection/save', { shop_id: shopId, shop_domain: d, access_token: TOKEN });
      expect(r.body.code, d).toBe(40001);
      expect(JSON.stringify(r.body.data)).toContain('shop_domain');
    }
    const douyin = Number((await one<{ id: number }>(`INSERT INTO shop (name, type) VALUES ('Douyin shop', 2) RETURNING id`)).id);
    const r = await admin.post('shop/connection/save', { shop_id: douyin, shop_domain: DOMAIN, access_token: TOKEN });
    expect(r.body.code).toBe(40001);
    expect(JSON.stringify(r.body.data)).toMatch(/shop_id.*Douyin shops cannot be synced/);
    expect(await n(`SELECT count(*)::int AS n FROM shop_connection`)).toBe(0);
  });

  it('stores the token encrypted, answers it masked and never returns or audits it', async () => {
    const r = await admin.ok('POST', 'shop/connection/save', { shop_id: shopId, shop_domain: 'Big-Shop.myshopify.com', access_token: TOKEN, client_secret: SECRET });
    expect(r).toMatchObject({ connected: true, platform: 'shopify', shop_domain: DOMAIN, sandbox: false, access_token_masked: 'shp…cdef' });
    const detail = await admin.ok('GET', 'shop/connection/detail', { shop_id: shopId });
    const row = await one(`SELECT * FROM shop_connection WHERE shop_id = $1`, [shopId]);
    const audits = (await s.db.query(`SELECT * FROM audit_logs WHERE resource = 'shop_connection'`)).rows;
    for (const text of [JSON.stringify(r), JSON.stringify(detail), JSON.stringify(row), JSON.stringify(audits)]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(SECRET);
    }
    expect(String(row.access_token_enc)).toMatch(/^v1\./);
    expect(audits.length).toBe(1);
    // the shop counts as authorized once connected
    expect(Number((await one(`SELECT authorize_status FROM shop WHERE id = $1`, [shopId])).authorize_status)).toBe(1);
  });
});

describe('syncing from the Admin GraphQL API', () => {
  it('pulls 1,050 products over several pages through a THROTTLED reply, with orders and policies, each once', async () => {
    // request 1 is the policies, 2… the product pages: the 5th request is throttled mid-products
    emu.throttleAt = [5];
    const d = await syncAndWait({ shop_id: shopId, scope: 'all' });
    expect(d.state, d.last_error).toBe('done');
    expect(d).toMatchObject({ source: 'shopify', shop_domain: DOMAIN, products: 1050, orders: 120, policies: 4, created: 1174, updated: 0, failed: 0 });
    expect(d.throttled).toBeGreaterThanOrEqual(1);
    expect(d.summary).toContain('1050 products');
    // the emulator: the throttled page was asked for again with the same cursor, every record served once
    const throttled = emu.log.findIndex((l) => l.throttled);
    expect(throttled).toBeGreaterThan(0);
    expect(emu.log[throttled + 1].variables.after).toEqual(emu.log[throttled].variables.after);
    expect(store.served).toMatchObject({ product: 1050, order: 120, policy: 4 });
    expect(emu.log.filter((l) => !l.throttled && l.variables.first === 100).length).toBeGreaterThanOrEqual(11);
    // the database: each record once
    expect(await n(`SELECT count(*)::int AS n FROM product_desc WHERE shop_id = $1`, [shopId])).toBe(1050);
    expect(await n(`SELECT count(DISTINCT external_id)::int AS n FROM product_desc WHERE shop_id = $1`, [shopId])).toBe(1050);
    expect(await n(`SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1`, [shopId])).toBe(120);
    expect(await n(`SELECT count(*)::int AS n FROM policy WHERE shop_id = $1 AND source_type = 4`, [shopId])).toBe(4);
    // the sync log's items: what came in, by kind
    const items = await admin.ok('GET', 'shop-sync/items', { job_id: d.id, entity: 'policy' });
    expect(items.total).toBe(4);
    expect(items.list.map((i: { title: string }) => i.title).sort()).toEqual(['Privacy policy', 'Refund policy', 'Shipping policy', 'Terms of service']);
    expect((await admin.ok('GET', 'shop-sync/items', { job_id: d.id })).total).toBe(1174);
  }, 180_000);

  it('a second sync asks only for what changed since, and reports it as changed', async () => {
    emu.throttleAt = [];
    const served = { ...store.served };
    const later = new Date(Date.now() - 60_000).toISOString();
    for (const p of store.products.slice(100, 107)) Object.assign(p, { title: `${p.title} (new edition)`, updatedAt: later });
    fillProducts(store, 3, Date.parse(later) + 1000, 5000);
    Object.assign(store.orders[5], { displayFinancialStatus: 'REFUNDED', updatedAt: new Date().toISOString() });
    const d = await syncAndWait({ shop_id: shopId, scope: 'all' });
    expect(d.state, d.last_error).toBe('done');
    expect(store.served.product - served.product).toBe(10);
    expect(store.served.order - served.order).toBe(1);
    expect(d).toMatchObject({ products: 10, orders: 1, policies: 4, created: 3, updated: 8, unchanged: 4, failed: 0 });
    expect(await n(`SELECT count(*)::int AS n FROM product_desc WHERE shop_id = $1`, [shopId])).toBe(1053);
    expect(await n(`SELECT count(*)::int AS n FROM product_desc WHERE shop_id = $1 AND title LIKE '%(new edition)'`, [shopId])).toBe(7);
    expect((await one(`SELECT financial_status FROM shop_order WHERE shop_id = $1 AND external_id = $2`, [shopId, store.orders[5].id])).financial_status).toBe('refunded');
    const changed = await admin.ok('GET', 'shop-sync/items', { job_id: d.id, action: 'updated' });
    expect(changed.total).toBe(8);
  });

  it('the synced refund policy is found by hit testing, with its source', async () => {
    const r = await admin.ok('POST', 'knowledge/hit-test', { query: 'How many days do I have to return an item for a refund?', shop_id: shopId, limit: 5 });
    expect(r.list.length).toBeGreaterThan(0);
    expect(r.list[0]).toMatchObject({ source_type: 'policy', policy_type: 4, title: 'Refund policy', shop_id: shopId });
    expect(r.list[0].text).toContain('30 days');
  });

  it('a Douyin shop is not pulled from its platform, and its sync says so', async () => {
    const douyin = Number((await one<{ id: number }>(`INSERT INTO shop (name, type, authorize_status) VALUES ('Douyin synced', 2, 1) RETURNING id`)).id);
    const c = await admin.ok('GET', 'shop/connection/detail', { shop_id: douyin });
    expect(c).toMatchObject({ connected: false });
    expect(c.note).toContain('Douyin shops cannot be synced yet');
    const d = await syncAndWait({ shop_id: douyin, scope: 'all' });
    expect(d).toMatchObject({ state: 'done', source: 'ingested' });
    expect(d.summary).toContain('Douyin shops are not pulled from the platform (not implemented');
    expect(d.summary).toContain('抖音店铺不从平台拉取');
  });

  it('a refused token fails the sync at once, without the token in the error', async () => {
    const other = Number((await one<{ id: number }>(`INSERT INTO shop (name, type) VALUES ('Wrong token shop', 1) RETURNING id`)).id);
    emu.stores.set('wrong-token.myshopify.com', newStore('wrong-token.myshopify.com', 'shpat_the_right_one'));
    const bad = 'shpat_this_one_is_wrong_0000000000';
    await admin.ok('POST', 'shop/connection/save', { shop_id: other, shop_domain: 'wrong-token.myshopify.com', access_token: bad });
    const d = await syncAndWait({ shop_id: other, scope: 'products' });
    expect(d.state).toBe('failed');
    expect(d.attempts, JSON.stringify(d)).toBe(1);
    expect(d.last_error).toContain('refused the access token');
    expect(JSON.stringify(d)).not.toContain(bad);
  });
});
