/**
 * `POST /api/webhooks/shopify`: Shopify's webhooks (public: Shopify has no session), topics
 * `orders/create`, `orders/updated`, `products/update` and `app/uninstalled`.
 *
 * - Verified first: `X-Shopify-Hmac-Sha256` must be the base64 HMAC-SHA256 of the raw body under
 *   the app's client secret (the shop's connection's, else SHOPIFY_CLIENT_SECRET), compared in
 *   constant time. Missing or wrong → HTTP 401 with an envelope (40003), nothing changes.
 * - De-duplicated by `X-Shopify-Webhook-Id`: the id is recorded in the transaction that applies
 *   the delivery, so a repeated delivery (Shopify retries) answers 200 and changes nothing.
 * - Applied with the sync's writes (records.ts): an order or product is created or updated, and
 *   shows in the sync log's items (via webhook); app/uninstalled forgets the access token and
 *   marks the shop unauthorized. Other topics are acknowledged and ignored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Code } from '../../../../src/contract/codes.js';
import type { Db, Queryable } from '../../../db/db.js';
import { sendEnvelope } from '../../../plugins/errors.js';
import { SHAPE_LIMITS, ShapeScanner } from '../../../http/json-shape.js';
import { normaliseShopDomain, shopifySettings } from '../../../shops/config.js';
import { fulfillmentStatus } from '../../../shops/shopify/adapter.js';
import { htmlToText, type OrderRecord, type ProductRecord } from '../../../shops/types.js';
import { webhookSecret, type ConnectionRow } from './connection.js';
import { noteItem, writeRecord, type Written } from './records.js';

export const WEBHOOK_PATH = '/api/webhooks/shopify';

/** Whether `header` is the base64 HMAC-SHA256 of `body` under `secret` (constant-time compare). */
export function verifyShopifyHmac(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!secret || !header) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  let given: Buffer;
  try {
    given = Buffer.from(header, 'base64');
  } catch {
    return false;
  }
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type Rec = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const gid = (p: Rec, kind: string) => str(p.admin_graphql_api_id) || (str(p.id) ? `gid://shopify/${kind}/${str(p.id)}` : '');

/** A REST-shaped order payload (orders/create, orders/updated) as the sync's order record. */
export function orderFromWebhook(p: Rec): OrderRecord {
  const c = (p.customer ?? {}) as Rec;
  return {
    id: gid(p, 'Order'),
    name: str(p.name),
    email: str(p.email),
    customerName: [str(c.first_name), str(c.last_name)].filter(Boolean).join(' '),
    amount: str(p.total_price) || '0',
    currency: str(p.currency) || 'USD',
    financialStatus: (str(p.financial_status) || 'pending').toLowerCase(),
    fulfillmentStatus: fulfillmentStatus(str(p.fulfillment_status) === 'partial' ? 'PARTIALLY_FULFILLED' : str(p.fulfillment_status) || null),
    createdAt: str(p.created_at),
    updatedAt: str(p.updated_at) || str(p.created_at),
  };
}

/** A REST-shaped product payload (products/update) as the sync's product record. */
export function productFromWebhook(p: Rec): ProductRecord {
  return {
    id: gid(p, 'Product'),
    title: str(p.title),
    description: htmlToText(str(p.body_html)),
    handle: str(p.handle),
    status: str(p.status).toUpperCase(),
    updatedAt: str(p.updated_at),
  };
}

async function apply(q: Queryable, row: ConnectionRow, topic: string, payload: Rec): Promise<string> {
  if (row.status !== 'connected') return 'ignored';
  if (topic === 'app/uninstalled') {
    await q.query(`UPDATE shop_connection SET status = 'uninstalled', access_token_enc = '', access_token_mask = '', updated_at = now() WHERE shop_id = $1`, [row.shop_id]);
    await q.query(`UPDATE shop SET authorize_status = 0, updated_at = now() WHERE id = $1`, [row.shop_id]);
    return 'uninstalled';
  }
  const entity = topic === 'products/update' ? 'product' : topic === 'orders/create' || topic === 'orders/updated' ? 'order' : null;
  if (!entity) return 'ignored';
  const rec = entity === 'product' ? productFromWebhook(payload) : orderFromWebhook(payload);
  const written: Written = await writeRecord(q, row.shop_id, entity, rec);
  await noteItem(q, { jobId: null, shopId: row.shop_id, via: 'webhook', entity, externalId: rec.id || '?', written });
  return written.outcome;
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export async function registerShopifyWebhooks(app: FastifyInstance, db: Db): Promise<void> {
  await app.register(async (scope) => {
    // the raw bytes: the signature is over the body exactly as sent
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 2 * 1024 * 1024 }, (_req, body, done) => done(null, body));
    scope.post(WEBHOOK_PATH, { config: { apiReply: true }, schema: { hide: true } }, async (req, reply) => {
      const body = req.body;
      if (!Buffer.isBuffer(body)) return sendEnvelope(reply, 400, Code.VALIDATION, 'a JSON body is expected / 请求体须为 JSON');
      const domain = normaliseShopDomain(header(req.headers['x-shopify-shop-domain']) ?? '');
      const row = domain
        ? ((await db.query<ConnectionRow>(`SELECT * FROM shop_connection WHERE platform = 'shopify' AND lower(shop_domain) = $1`, [domain])).rows[0] ?? null)
        : null;
      const secret = row ? webhookSecret(row) : shopifySettings().clientSecret;
      if (!verifyShopifyHmac(secret, body, header(req.headers['x-shopify-hmac-sha256']))) {
        return sendEnvelope(reply, 401, Code.FORBIDDEN, 'the webhook signature (X-Shopify-Hmac-Sha256) is missing or wrong / Webhook 签名（X-Shopify-Hmac-Sha256）缺失或不符');
      }
      const webhookId = header(req.headers['x-shopify-webhook-id']) ?? '';
      if (!/^[\w.:-]{1,100}$/.test(webhookId)) {
        return sendEnvelope(reply, 400, Code.VALIDATION, 'X-Shopify-Webhook-Id is missing or malformed / 缺少或无效的 X-Shopify-Webhook-Id', { errors: [{ field: 'X-Shopify-Webhook-Id', message: 'required / 必填' }] });
      }
      const topic = (header(req.headers['x-shopify-topic']) ?? '').slice(0, 60);
      if (!row) return sendEnvelope(reply, 200, Code.OK, 'ok', { webhook_id: webhookId, topic, outcome: 'no connected shop', duplicate: false });
      // the shape limits every JSON body has (depth, array length, keys, string length), checked
      // on the raw bytes before anything recursive — the parse — sees them (server/http/json-shape.ts)
      const problem = new ShapeScanner(SHAPE_LIMITS).feed(body);
      if (problem) return sendEnvelope(reply, 400, Code.VALIDATION, `${problem.field}: ${problem.message}`, { errors: [problem] });
      let payload: Rec;
      try {
        const v = JSON.parse(body.toString('utf8')) as unknown;
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
        payload = v as Rec;
      } catch {
        return sendEnvelope(reply, 400, Code.VALIDATION, 'the body is not a JSON object / 请求体不是 JSON 对象');
      }
      const result = await db.tx(async (q) => {
        const first = await q.query(
          `INSERT INTO shop_webhook (webhook_id, shop_id, topic, outcome) VALUES ($1, $2, $3, 'received') ON CONFLICT (webhook_id) DO NOTHING RETURNING webhook_id`,
          [webhookId, row.shop_id, topic],
        );
        if (!first.rows.length) return { outcome: 'duplicate', duplicate: true };
        const outcome = await apply(q, row, topic, payload);
        await q.query(`UPDATE shop_webhook SET outcome = $2 WHERE webhook_id = $1`, [webhookId, outcome]);
        return { outcome, duplicate: false };
      });
      return sendEnvelope(reply, 200, Code.OK, 'ok', { webhook_id: webhookId, topic, shop_id: row.shop_id, ...result });
    });
  });
}
