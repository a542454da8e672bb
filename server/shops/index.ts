/**
 * The adapter of a connected shop: Shopify (the real Admin API, or the sandbox emulator for a
 * sandbox connection) or Douyin (which says what it cannot do). Shop types without an adapter
 * (Shopline, custom sites) are not connectable: server/resources/shops/shopify/connection.ts refuses them.
 */
import { douyinAdapter } from './douyin.js';
import { sandboxTransport } from './sandbox.js';
import { shopifyAdapter } from './shopify/adapter.js';
import { httpTransport } from './shopify/graphql.js';
import type { Connection, ShopAdapter } from './types.js';

export function adapterFor(conn: Connection): ShopAdapter {
  if (conn.platform === 'douyin') return douyinAdapter;
  return shopifyAdapter(conn.sandbox ? sandboxTransport(conn.domain) : httpTransport(conn));
}
