/**
 * The shop-platform adapter interface: what a sync asks of a platform, whatever the platform.
 * A sync (server/resources/shops/shopify/sync-job.ts) pulls pages of one kind at a time, from a cursor,
 * of the records changed since a watermark, and writes each page with its cursor in one
 * transaction. Shopify implements it (server/shops/shopify); Douyin says what it cannot do
 * (server/shops/douyin.ts).
 */

export const ENTITIES = ['policy', 'product', 'order'] as const;
export type Entity = (typeof ENTITIES)[number];

export interface ProductRecord {
  /** the platform's id (Shopify: gid://shopify/Product/…) */
  id: string;
  title: string;
  /** plain text (Shopify's `description`, the HTML stripped) */
  description: string;
  handle: string;
  status: string;
  updatedAt: string;
}

export interface OrderRecord {
  id: string;
  name: string;
  email: string;
  customerName: string;
  amount: string;
  currency: string;
  /** lower case, as schemas/enums/order_financial_status */
  financialStatus: string;
  /** lower case, as schemas/enums/order_fulfillment_status */
  fulfillmentStatus: string;
  createdAt: string;
  updatedAt: string;
}

export interface PolicyRecord {
  id: string;
  /** e.g. REFUND_POLICY */
  type: string;
  title: string;
  /** plain text of the policy's HTML body */
  body: string;
  url: string;
  updatedAt: string;
}

export interface RecordOf {
  product: ProductRecord;
  order: OrderRecord;
  policy: PolicyRecord;
}

export interface PageOf<E extends Entity> {
  items: Array<RecordOf[E]>;
  /** the cursor after this page (null: the first page was everything) */
  cursor: string | null;
  hasNext: boolean;
}

export interface PullOptions {
  /** go on after this cursor (null: from the start) */
  cursor: string | null;
  /** only records updated after this time (ISO; null: all) */
  since: string | null;
  signal?: AbortSignal;
}

/** A connected shop as the adapters see it (the token decrypted for the call, never stored here). */
export interface Connection {
  shopId: number;
  platform: 'shopify' | 'douyin';
  domain: string;
  apiVersion: string;
  accessToken: string;
  sandbox: boolean;
}

export interface ShopAdapter {
  platform: string;
  /** the kinds this adapter can pull */
  entities: readonly Entity[];
  pull<E extends Entity>(entity: E, opts: PullOptions): Promise<PageOf<E>>;
  /** times the platform asked us to slow down so far (Shopify: THROTTLED) */
  readonly throttled: number;
}

/** A platform failure that retrying cannot fix (refused token, a shop that is gone). */
export class PlatformRefused extends Error {}

/** Plain text of an HTML fragment (policies, webhook bodies): tags dropped, entities read, spaces kept short. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6])\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}
