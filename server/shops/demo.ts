/**
 * Demo data's sandbox shop: the first authorized Shopify shop of the demo is connected to the
 * built-in Shopify sandbox (server/shops/sandbox.ts), so a newcomer can start a sync of it and
 * watch products, orders and policies come in — every page that shows it says "sandbox".
 * Idempotent: does nothing when any shop is connected.
 */
import type { Db } from '../db/db.js';

export async function seedShopSandbox(db: Db): Promise<void> {
  const any = await db.query(`SELECT 1 FROM shop_connection LIMIT 1`);
  if (any.rows.length) return;
  const shop = (await db.query<{ id: number }>(`SELECT id FROM shop WHERE type = 1 AND authorize_status = 1 ORDER BY id LIMIT 1`)).rows[0];
  if (!shop) return;
  await db.query(
    `INSERT INTO shop_connection (shop_id, platform, shop_domain, access_token_mask, sandbox) VALUES ($1, 'shopify', $2, 'sandbox', true) ON CONFLICT DO NOTHING`,
    [shop.id, `sandbox-shop-${shop.id}.myshopify.com`],
  );
}
