/**
 * Shop-platform settings, read from the environment at each use (the API process and the worker
 * processes of one deployment agree; a change needs a restart only). docs/integrations.md.
 *
 *   SHOPIFY_API_VERSION     Admin API version of new connections (default 2025-01)
 *   SHOPIFY_CLIENT_SECRET   the app's client secret: verifies webhooks of shops whose connection
 *                           holds none of its own
 *   SHOPIFY_ADMIN_BASE_URL  an Admin API emulator to call instead of https://{shop}.myshopify.com
 *                           (tests; the shop is then named in X-Shopify-Shop-Domain). Unset in
 *                           production: calls go to the shop's own *.myshopify.com domain only.
 */
export const DEFAULT_SHOPIFY_API_VERSION = '2025-01';

/** A shop's permanent Shopify domain: `name.myshopify.com` and nothing else. */
export const SHOPIFY_DOMAIN_PATTERN = '^[a-z0-9][a-z0-9-]{0,60}\\.myshopify\\.com$';
const DOMAIN_RE = new RegExp(SHOPIFY_DOMAIN_PATTERN);
export const API_VERSION_PATTERN = '^20[0-9]{2}-(01|04|07|10)$';

export interface ShopifySettings {
  apiVersion: string;
  clientSecret: string;
  /** '' = the real platform */
  adminBaseUrl: string;
}

export function shopifySettings(env: NodeJS.ProcessEnv = process.env): ShopifySettings {
  const version = (env.SHOPIFY_API_VERSION ?? '').trim();
  return {
    apiVersion: new RegExp(API_VERSION_PATTERN).test(version) ? version : DEFAULT_SHOPIFY_API_VERSION,
    clientSecret: (env.SHOPIFY_CLIENT_SECRET ?? '').trim(),
    adminBaseUrl: (env.SHOPIFY_ADMIN_BASE_URL ?? '').trim().replace(/\/+$/, ''),
  };
}

/** `Example.MyShopify.com` → `example.myshopify.com`; null when it is not a shop domain. */
export function normaliseShopDomain(raw: string): string | null {
  const d = raw.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return DOMAIN_RE.test(d) ? d : null;
}

/** Where the Admin GraphQL API of `domain` is (the emulator's when one is configured). */
export function adminGraphqlUrl(domain: string, apiVersion: string, s: ShopifySettings = shopifySettings()): string {
  const base = s.adminBaseUrl || `https://${domain}`;
  return `${base}/admin/api/${apiVersion}/graphql.json`;
}
