// @db once
/**
 * Shopify webhooks (issue 24) at POST /api/webhooks/shopify: verified by X-Shopify-Hmac-Sha256
 * (base64 HMAC-SHA256 of the raw body under the app's client secret) and de-duplicated by
 * X-Shopify-Webhook-Id. A wrong or missing signature is refused with 401 and an envelope and
 * changes nothing; a repeated webhook id answers 200 and changes nothing; orders/create,
 * orders/updated and products/update write the order / product and show in the sync log's
 * items; app/uninstalled forgets the token and the shop's authorization.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from '../harness.js';

const DOMAIN = 'hooked.myshopify.com';
const SECRET = 'shpss_webhook_secret_0123456789abcdef';
let s: TestServer;
let admin: ApiClient;
let shopId: number;

const one = async (sql: string, params: unknown[] = []) => (await s.db.query<Record<string, unknown>>(sql, params)).rows[0];
const n = async (sql: string, params: unknown[] = []) => Number((await one(sql, params)).n);
const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body, 'utf8').digest('base64');

async function deliver(topic: string, payload: unknown, opts: { id: string; hmac?: string | null; domain?: string }) {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Shopify-Topic': topic,
    'X-Shopify-Shop-Domain': opts.domain ?? DOMAIN,
    'X-Shopify-Webhook-Id': opts.id,
    'X-Shopify-API-Version': '2025-01',
  };
  if (opts.hmac !== null) headers['X-Shopify-Hmac-Sha256'] = opts.hmac ?? sign(body);
  const res = await fetch(`${s.url}/api/webhooks/shopify`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null } };
}

const order = (over: Record<string, unknown> = {}) => ({
  id: 820982911946154500,
  admin_graphql_api_id: 'gid://shopify/Order/820982911946154500',
  name: '#9999',
  email: 'jon@example.com',
  created_at: '2025-02-01T10:00:00-05:00',
  updated_at: '2025-02-01T10:00:00-05:00',
  total_price: '199.00',
  currency: 'USD',
  financial_status: 'paid',
  fulfillment_status: null,
  customer: { first_name: 'Jon', last_name: 'Snow' },
  ...over,
});

/** every row the webhooks may touch, as one text */
const snapshot = async () =>
  JSON.stringify([
    (await s.db.query(`SELECT * FROM shop_order WHERE shop_id = $1 ORDER BY id`, [shopId])).rows,
    (await s.db.query(`SELECT * FROM product_desc WHERE shop_id = $1 ORDER BY id`, [shopId])).rows,
    (await s.db.query(`SELECT * FROM shop_sync_item WHERE shop_id = $1 ORDER BY id`, [shopId])).rows,
    (await s.db.query(`SELECT webhook_id, outcome FROM shop_webhook ORDER BY webhook_id`)).rows,
    (await s.db.query(`SELECT status, access_token_mask FROM shop_connection WHERE shop_id = $1`, [shopId])).rows,
  ]);

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  shopId = Number((await one(`INSERT INTO shop (name, type) VALUES ('Hooked shop', 1) RETURNING id`)).id);
  await admin.ok('POST', 'shop/connection/save', { shop_id: shopId, shop_domain: DOMAIN, access_token: 'shpat_hooked_token_0000000000', client_secret: SECRET });
});

afterAll(async () => {
  await s?.close();
});

describe('Shopify webhooks', () => {
  it('refuses a wrong or missing signature with 401 and an envelope, changing nothing', async () => {
    const before = await snapshot();
    const body = JSON.stringify(order());
    for (const hmac of [sign(body, 'another-secret'), null, 'bm90IGEgc2lnbmF0dXJl', sign(`${body} `)]) {
      const r = await deliver('orders/create', order(), { id: `bad-${String(hmac).slice(0, 6)}`, hmac });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(40003);
      expect(r.body.msg).toContain('X-Shopify-Hmac-Sha256');
    }
    // an unknown shop without an app-wide secret cannot be verified either
    expect((await deliver('orders/create', order(), { id: 'unknown-shop', domain: 'nobody.myshopify.com' })).status).toBe(401);
    expect(await snapshot()).toBe(before);
  });

  it('applies orders/create once: a repeated webhook id answers 200 and changes nothing', async () => {
    const r = await deliver('orders/create', order(), { id: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ outcome: 'created', duplicate: false, shop_id: shopId });
    const row = await one(`SELECT name, email, customer_name, amount::text AS amount, financial_status, fulfillment_status FROM shop_order WHERE shop_id = $1`, [shopId]);
    expect(row).toMatchObject({ name: '#9999', email: 'jon@example.com', customer_name: 'Jon Snow', amount: '199.00', financial_status: 'paid', fulfillment_status: 'unfulfilled' });
    const before = await snapshot();
    // the same delivery again, and the same id carrying another body (validly signed): nothing changes
    expect((await deliver('orders/create', order(), { id: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043' })).body.data).toMatchObject({ duplicate: true });
    const again = await deliver('orders/updated', order({ financial_status: 'refunded' }), { id: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ duplicate: true, outcome: 'duplicate' });
    expect(await snapshot()).toBe(before);
  });

  it('applies orders/updated and products/update, noted in the sync log as webhook items', async () => {
    const r = await deliver('orders/updated', order({ financial_status: 'refunded', fulfillment_status: 'fulfilled', updated_at: '2025-02-02T10:00:00Z' }), { id: 'upd-1' });
    expect(r.body.data).toMatchObject({ outcome: 'updated' });
    expect(await one(`SELECT financial_status, fulfillment_status FROM shop_order WHERE shop_id = $1`, [shopId])).toMatchObject({ financial_status: 'refunded', fulfillment_status: 'fulfilled' });
    const p = { id: 632910392, admin_graphql_api_id: 'gid://shopify/Product/632910392', title: 'IPod Nano - 8GB', body_html: '<p>It\'s the <strong>small</strong> iPod.</p>', handle: 'ipod-nano', status: 'active', updated_at: '2025-02-02T10:00:00Z' };
    expect((await deliver('products/update', p, { id: 'prod-1' })).body.data).toMatchObject({ outcome: 'created' });
    expect(await one(`SELECT title, description FROM product_desc WHERE shop_id = $1 AND external_id = $2`, [shopId, p.admin_graphql_api_id])).toMatchObject({ title: 'IPod Nano - 8GB', description: "It's the small iPod." });
    const items = await admin.ok('GET', 'shop-sync/items', { shop_id: shopId, via: 'webhook' });
    expect(items.list.map((i: { entity: string; action: string }) => `${i.entity}:${i.action}`).sort()).toEqual(['order:created', 'order:updated', 'product:created']);
  });

  it('app/uninstalled forgets the token and the authorization; a sync then fails at once', async () => {
    const r = await deliver('app/uninstalled', { id: 1, domain: DOMAIN }, { id: 'uninstall-1' });
    expect(r.body.data).toMatchObject({ outcome: 'uninstalled' });
    expect(await one(`SELECT status, access_token_enc, access_token_mask FROM shop_connection WHERE shop_id = $1`, [shopId])).toMatchObject({ status: 'uninstalled', access_token_enc: '', access_token_mask: '' });
    expect(Number((await one(`SELECT authorize_status FROM shop WHERE id = $1`, [shopId])).authorize_status)).toBe(0);
    // an order webhook after the uninstall changes nothing
    const before = await n(`SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1`, [shopId]);
    expect((await deliver('orders/create', order({ id: 1, admin_graphql_api_id: 'gid://shopify/Order/1' }), { id: 'late-1' })).body.data).toMatchObject({ outcome: 'ignored' });
    expect(await n(`SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1`, [shopId])).toBe(before);
  });

  it('refuses a body beyond the JSON shape limits (as every JSON body) with 400 naming the field, before parsing it, writing nothing', async () => {
    let deep: Record<string, unknown> = { id: 1 };
    for (let i = 0; i < 100; i++) deep = { a: deep };
    const before = await snapshot();
    const r = await deliver('orders/create', order({ customer: deep }), { id: 'too-deep-1' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(40001);
    expect(r.body.data).toMatchObject({ errors: [{ field: expect.stringMatching(/^customer\.a\.a/) }] });
    expect(r.body.msg).toMatch(/nested deeper than 64 levels|嵌套超过 64 层/);
    expect(await snapshot()).toBe(before);
  });

  it('names a missing webhook id', async () => {
    const r = await deliver('orders/create', order(), { id: '' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(40001);
  });
});
