/**
 * The built-in Shopify sandbox (demo data): a connection marked `sandbox` is answered by the
 * Admin GraphQL emulator (server/shops/shopify/emulator.ts) in this process — the same client,
 * pagination, throttling and writes as a real shop, with no network and no real shop. Each
 * sandbox domain has one store per process, made on first use: 240 products, 60 orders and the
 * four usual policies (the same products and policies every time, the orders dated from the store's
 * first use); a sync of it is labelled "sandbox" wherever it shows.
 */
import { fillOrders, fillPolicies, fillProducts, handleGraphql, newStore, type EmulatorStore } from './shopify/emulator.js';
import type { Transport } from './shopify/graphql.js';

/** The token of every sandbox store (not a secret: the sandbox holds demo data only). */
export const SANDBOX_TOKEN = 'shpat_sandbox_demo';

const stores = new Map<string, EmulatorStore>();

export function sandboxStore(domain: string): EmulatorStore {
  let s = stores.get(domain);
  if (!s) {
    s = newStore(domain, SANDBOX_TOKEN, { max: 1000, rate: 100 });
    fillProducts(s, 240);
    // orders of the hours before the store is first used, so a first sync's window (the last days) holds them
    fillOrders(s, 60, Date.now() - 3_600_000);
    fillPolicies(s);
    stores.set(domain, s);
  }
  return s;
}

/** The sandbox as a transport of the GraphQL client. */
export const sandboxTransport =
  (domain: string): Transport =>
  async (body) =>
    handleGraphql(sandboxStore(domain), SANDBOX_TOKEN, body);
