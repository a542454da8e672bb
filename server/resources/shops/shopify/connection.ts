/**
 * A shop's platform connection (migration 0032, table shop_connection): a Shopify shop is
 * connected by its shop domain (`name.myshopify.com`) and an Admin API access token, and
 * optionally its app's client secret (which signs its webhooks); or to the built-in sandbox
 * (demo data). Tokens are write-only: stored encrypted (server/ai/secrets.ts), shown masked,
 * never returned, never logged (audit rows hold the masks). Douyin shops and other types are
 * refused with the reason (server/shops/douyin.ts, docs/integrations.md).
 *
 *   GET  shop/connection/detail?shop_id=   the connection (masked), or `connected: false`
 *   POST shop/connection/save              connect or change; a token left out keeps the stored one
 *   POST shop/connection/delete            forget the connection and its tokens
 */
import { Type, type Static } from '@sinclair/typebox';
import { decryptSecret, encryptSecret, maskSecret, SecretUnreadable } from '../../../ai/secrets.js';
import type { Queryable } from '../../../db/db.js';
import { invalid } from '../../../http/errors.js';
import { route } from '../../../http/route.js';
import { Nullable } from '../../../http/typebox.js';
import { PermanentJobError } from '../../../jobs/types.js';
import { API_VERSION_PATTERN, normaliseShopDomain, shopifySettings, SHOPIFY_DOMAIN_PATTERN } from '../../../shops/config.js';
import { DOUYIN_UNSUPPORTED } from '../../../shops/douyin.js';
import { SANDBOX_TOKEN } from '../../../shops/sandbox.js';
import type { Connection } from '../../../shops/types.js';
import { mustExist } from '../../engine/refs.js';
import { Id } from '../../engine/schemas.js';
import { K } from '../../keys.js';
import { PG } from '../../page-groups/keys.js';

export interface ConnectionRow {
  shop_id: number;
  platform: 'shopify' | 'douyin';
  shop_domain: string;
  api_version: string;
  access_token_enc: string;
  access_token_mask: string;
  client_secret_enc: string;
  client_secret_mask: string;
  sandbox: boolean;
  status: 'connected' | 'uninstalled';
  products_synced_to: string | null;
  orders_synced_to: string | null;
  policies_synced_to: string | null;
}

export const loadConnection = async (q: Queryable, shopId: number): Promise<ConnectionRow | null> =>
  (await q.query<ConnectionRow>(`SELECT * FROM shop_connection WHERE shop_id = $1`, [shopId])).rows[0] ?? null;

/** The connection as the adapters take it: the token decrypted for this run only. */
export function openConnection(row: ConnectionRow): Connection {
  let accessToken: string;
  try {
    // the sandbox's token is no secret (demo data only) and is not stored
    accessToken = row.sandbox ? SANDBOX_TOKEN : decryptSecret(row.access_token_enc);
  } catch (e) {
    if (e instanceof SecretUnreadable) throw new PermanentJobError(`the shop's access token cannot be read: ${e.message}`);
    throw e;
  }
  return { shopId: row.shop_id, platform: row.platform, domain: row.shop_domain, apiVersion: row.api_version, accessToken, sandbox: row.sandbox };
}

/** The client secret that verifies this shop's webhooks: its own, else SHOPIFY_CLIENT_SECRET. */
export function webhookSecret(row: ConnectionRow): string {
  try {
    return row.client_secret_enc ? decryptSecret(row.client_secret_enc) : shopifySettings().clientSecret;
  } catch {
    return '';
  }
}

const nstr = Nullable(Type.String());
const syncedTo = Nullable(Type.String({ format: 'date-time' }));
const connectionReply = Type.Object({
  shop_id: Type.Integer(),
  connected: Type.Boolean(),
  platform: nstr,
  shop_domain: nstr,
  api_version: nstr,
  access_token_masked: Type.String(),
  client_secret_masked: Type.String(),
  sandbox: Type.Boolean(),
  status: nstr,
  products_synced_to: syncedTo,
  orders_synced_to: syncedTo,
  policies_synced_to: syncedTo,
  /** what this shop type can do (English / 中文) */
  note: Type.String(),
});

const SHOPIFY_NOTE = 'Shopify: products, orders and policies are pulled through the Admin GraphQL API / Shopify：通过 Admin GraphQL API 拉取商品、订单与政策';
const SANDBOX_NOTE = 'Sandbox: the built-in Shopify emulator answers with demo data, no real shop is called / 沙箱：由内置 Shopify 模拟器以演示数据应答，不调用真实店铺';
const OTHER_NOTE = 'This shop type has no platform adapter: its records come through the ingestion API / 该店铺类型暂无平台适配器，数据经数据接入 API 推送';

function describe(shopId: number, type: number, row: ConnectionRow | null): Static<typeof connectionReply> {
  const note = type === 2 ? DOUYIN_UNSUPPORTED : type !== 1 ? OTHER_NOTE : row?.sandbox ? SANDBOX_NOTE : SHOPIFY_NOTE;
  return {
    shop_id: shopId,
    connected: !!row && row.status === 'connected',
    platform: row?.platform ?? null,
    shop_domain: row?.shop_domain ?? '',
    api_version: row?.api_version ?? null,
    access_token_masked: row?.access_token_mask ?? '',
    client_secret_masked: row?.client_secret_mask ?? '',
    sandbox: row?.sandbox ?? false,
    status: row?.status ?? null,
    products_synced_to: row?.products_synced_to ?? null,
    orders_synced_to: row?.orders_synced_to ?? null,
    policies_synced_to: row?.policies_synced_to ?? null,
    note,
  };
}

const shopType = async (q: Queryable, shopId: number, field = 'shop_id'): Promise<number> => {
  await mustExist(q, 'shop', shopId, field);
  return Number((await q.query<{ type: number }>(`SELECT type FROM shop WHERE id = $1`, [shopId])).rows[0].type);
};

const TOKEN = Type.String({ minLength: 1, maxLength: 255, pattern: '^\\S+$' });

export const connectionRoutes = [
  route({
    method: 'GET',
    path: 'shop/connection/detail',
    access: { permission: [K.shopEdit, PG.shopSync, PG.profileAdvanced, PG.syncLog] },
    summary: "A shop's platform connection: domain, API version, sandbox or not, the tokens masked (never the tokens), the sync watermarks",
    query: Type.Object({ shop_id: Id }, { additionalProperties: false }),
    reply: connectionReply,
    handler: async (ctx) => {
      const type = await shopType(ctx.db, ctx.query.shop_id);
      return describe(ctx.query.shop_id, type, await loadConnection(ctx.db, ctx.query.shop_id));
    },
  }),
  route({
    method: 'POST',
    path: 'shop/connection/save',
    access: { permission: K.shopEdit },
    summary:
      'Connect a Shopify shop: its *.myshopify.com domain and Admin API access token (stored encrypted, never returned), optionally the app client secret that signs its webhooks; or `sandbox: true` for the built-in emulator. A token left out keeps the stored one',
    body: Type.Object(
      {
        shop_id: Id,
        sandbox: Type.Optional(Type.Boolean()),
        shop_domain: Type.Optional(Type.String({ maxLength: 255 })),
        access_token: Type.Optional(TOKEN),
        client_secret: Type.Optional(TOKEN),
        api_version: Type.Optional(Type.String({ pattern: API_VERSION_PATTERN })),
      },
      { additionalProperties: false },
    ),
    reply: connectionReply,
    handler: async (ctx) => {
      const b = ctx.body;
      const type = await shopType(ctx.db, b.shop_id);
      if (type === 2) throw invalid([{ field: 'shop_id', message: DOUYIN_UNSUPPORTED }]);
      if (type !== 1) throw invalid([{ field: 'shop_id', message: OTHER_NOTE }]);
      const before = await loadConnection(ctx.db, b.shop_id);
      const sandbox = b.sandbox ?? before?.sandbox ?? false;
      const domain = sandbox ? `sandbox-shop-${b.shop_id}.myshopify.com` : normaliseShopDomain(b.shop_domain ?? before?.shop_domain ?? '');
      if (!domain) {
        throw invalid([{ field: 'shop_domain', message: `must be the shop's permanent domain, e.g. example.myshopify.com (${SHOPIFY_DOMAIN_PATTERN}) / 须为店铺的 myshopify.com 域名，例如 example.myshopify.com` }]);
      }
      const sameTarget = !!before && before.shop_domain === domain && before.sandbox === sandbox;
      let tokenEnc = sameTarget ? before.access_token_enc : '';
      let tokenMask = sameTarget ? before.access_token_mask : '';
      if (sandbox) {
        tokenEnc = '';
        tokenMask = 'sandbox';
      } else if (b.access_token) {
        tokenEnc = encryptSecret(b.access_token, 'access_token');
        tokenMask = maskSecret(b.access_token);
      }
      if (!sandbox && !tokenEnc) throw invalid([{ field: 'access_token', message: 'the Admin API access token is required / 请填写 Admin API 访问令牌' }]);
      let secretEnc = sameTarget ? before.client_secret_enc : '';
      let secretMask = sameTarget ? before.client_secret_mask : '';
      if (b.client_secret) {
        secretEnc = encryptSecret(b.client_secret, 'client_secret');
        secretMask = maskSecret(b.client_secret);
      }
      const taken = await ctx.db.query<{ shop_id: number }>(
        `SELECT shop_id FROM shop_connection WHERE platform = 'shopify' AND lower(shop_domain) = $1 AND shop_id <> $2`,
        [domain, b.shop_id],
      );
      if (taken.rows.length) throw invalid([{ field: 'shop_domain', message: `is connected to shop ${taken.rows[0].shop_id} already / 该域名已连接到店铺 ${taken.rows[0].shop_id}` }]);
      const version = b.api_version ?? before?.api_version ?? shopifySettings().apiVersion;
      // a new target starts over: its watermarks belong to the old one
      await ctx.db.query(
        `INSERT INTO shop_connection (shop_id, platform, shop_domain, api_version, access_token_enc, access_token_mask, client_secret_enc, client_secret_mask, sandbox, status)
         VALUES ($1, 'shopify', $2, $3, $4, $5, $6, $7, $8, 'connected')
         ON CONFLICT (shop_id) DO UPDATE SET shop_domain = EXCLUDED.shop_domain, api_version = EXCLUDED.api_version,
           access_token_enc = EXCLUDED.access_token_enc, access_token_mask = EXCLUDED.access_token_mask,
           client_secret_enc = EXCLUDED.client_secret_enc, client_secret_mask = EXCLUDED.client_secret_mask,
           sandbox = EXCLUDED.sandbox, status = 'connected', updated_at = now(),
           products_synced_to = CASE WHEN $9 THEN shop_connection.products_synced_to END,
           orders_synced_to = CASE WHEN $9 THEN shop_connection.orders_synced_to END,
           policies_synced_to = CASE WHEN $9 THEN shop_connection.policies_synced_to END`,
        [b.shop_id, domain, version, tokenEnc, tokenMask, secretEnc, secretMask, sandbox, sameTarget],
      );
      // a connected shop has authorized the platform (the sync checks it)
      await ctx.db.query(`UPDATE shop SET authorize_status = 1, updated_at = now() WHERE id = $1 AND authorize_status <> 1`, [b.shop_id]);
      const after = await loadConnection(ctx.db, b.shop_id);
      const masked = (r: ConnectionRow | null) =>
        r && { shop_domain: r.shop_domain, api_version: r.api_version, sandbox: r.sandbox, access_token: r.access_token_mask, client_secret: r.client_secret_mask, status: r.status };
      await ctx.audit({ action: before ? 'update' : 'create', resource: 'shop_connection', targetId: b.shop_id, before: masked(before), after: masked(after) });
      return describe(b.shop_id, type, after);
    },
  }),
  route({
    method: 'POST',
    path: 'shop/connection/delete',
    access: { permission: K.shopEdit },
    summary: "Forget a shop's platform connection and its tokens (what was synced stays)",
    body: Type.Object({ shop_id: Id }, { additionalProperties: false }),
    reply: connectionReply,
    handler: async (ctx) => {
      const type = await shopType(ctx.db, ctx.body.shop_id);
      const r = await ctx.db.query<ConnectionRow>(`DELETE FROM shop_connection WHERE shop_id = $1 RETURNING *`, [ctx.body.shop_id]);
      if (r.rows.length) {
        const b = r.rows[0];
        await ctx.audit({ action: 'delete', resource: 'shop_connection', targetId: ctx.body.shop_id, before: { shop_domain: b.shop_domain, sandbox: b.sandbox, access_token: b.access_token_mask } });
      }
      return describe(ctx.body.shop_id, type, null);
    },
  }),
];
