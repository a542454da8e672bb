/**
 * The Shopify adapter: products, orders and the shop's policies through the Admin GraphQL API,
 * with cursor pagination (`pageInfo { hasNextPage endCursor }`) and the incremental filter
 * `updated_at:>'…'` in the search syntax, pages sorted by UPDATED_AT.
 */
import { htmlToText, type Entity, type OrderRecord, type PageOf, type PolicyRecord, type ProductRecord, type PullOptions, type ShopAdapter } from '../types.js';
import { ShopifyGraphql, type Transport } from './graphql.js';

export const PAGE_SIZE = { product: 100, order: 50 } as const;

export const PRODUCTS_QUERY = `query SyncProducts($first: Int!, $after: String, $query: String) {
  products(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    pageInfo { hasNextPage endCursor }
    nodes { id title handle status description updatedAt }
  }
}`;

export const ORDERS_QUERY = `query SyncOrders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id name email createdAt updatedAt displayFinancialStatus displayFulfillmentStatus
      totalPriceSet { shopMoney { amount currencyCode } }
      customer { displayName }
    }
  }
}`;

export const POLICIES_QUERY = `query SyncPolicies {
  shop { shopPolicies { id type title body url updatedAt } }
}`;

interface Connection<N> {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: N[];
}

interface ProductNode {
  id: string;
  title: string;
  handle: string;
  status: string;
  description: string | null;
  updatedAt: string;
}

interface OrderNode {
  id: string;
  name: string;
  email: string | null;
  createdAt: string;
  updatedAt: string;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string | null;
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } } | null;
  customer: { displayName: string | null } | null;
}

interface PolicyNode {
  id: string;
  type: string;
  title: string;
  body: string;
  url: string;
  updatedAt: string;
}

/** Shopify's OrderDisplayFinancialStatus → schemas/enums/order_financial_status (PENDING → pending …). */
export function financialStatus(s: string | null): string {
  const v = (s ?? 'PENDING').toLowerCase();
  return ['pending', 'authorized', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided', 'expired'].includes(v) ? v : 'pending';
}

/** Shopify's OrderDisplayFulfillmentStatus → schemas/enums/order_fulfillment_status. */
export function fulfillmentStatus(s: string | null): string {
  const v = (s ?? 'UNFULFILLED').toUpperCase();
  if (v === 'FULFILLED') return 'fulfilled';
  if (v === 'PARTIALLY_FULFILLED') return 'partial';
  if (v === 'RESTOCKED') return 'restocked';
  return 'unfulfilled';
}

/** The search filter of an incremental page: records updated after the watermark. */
export const sinceFilter = (since: string | null): string | null => (since ? `updated_at:>'${new Date(since).toISOString()}'` : null);

export function shopifyAdapter(transport: Transport): ShopAdapter {
  const client = new ShopifyGraphql(transport);
  async function pull<E extends Entity>(entity: E, opts: PullOptions): Promise<PageOf<E>> {
    const vars = { after: opts.cursor, query: sinceFilter(opts.since) };
    if (entity === 'product') {
      const d = await client.query<{ products: Connection<ProductNode> }>(PRODUCTS_QUERY, { first: PAGE_SIZE.product, ...vars }, opts.signal);
      const items: ProductRecord[] = d.products.nodes.map((n) => ({
        id: n.id,
        title: n.title,
        handle: n.handle,
        status: n.status,
        description: htmlToText(n.description ?? ''),
        updatedAt: n.updatedAt,
      }));
      return { items, cursor: d.products.pageInfo.endCursor, hasNext: d.products.pageInfo.hasNextPage } as PageOf<E>;
    }
    if (entity === 'order') {
      const d = await client.query<{ orders: Connection<OrderNode> }>(ORDERS_QUERY, { first: PAGE_SIZE.order, ...vars }, opts.signal);
      const items: OrderRecord[] = d.orders.nodes.map((n) => ({
        id: n.id,
        name: n.name,
        email: n.email ?? '',
        customerName: n.customer?.displayName ?? '',
        amount: n.totalPriceSet?.shopMoney.amount ?? '0',
        currency: n.totalPriceSet?.shopMoney.currencyCode ?? 'USD',
        financialStatus: financialStatus(n.displayFinancialStatus),
        fulfillmentStatus: fulfillmentStatus(n.displayFulfillmentStatus),
        createdAt: n.createdAt,
        updatedAt: n.updatedAt,
      }));
      return { items, cursor: d.orders.pageInfo.endCursor, hasNext: d.orders.pageInfo.hasNextPage } as PageOf<E>;
    }
    // policies: a short list on the shop, no pages and no filter (unchanged ones are told apart by their hash)
    const d = await client.query<{ shop: { shopPolicies: PolicyNode[] } }>(POLICIES_QUERY, {}, opts.signal);
    const items: PolicyRecord[] = d.shop.shopPolicies.map((n) => ({ id: n.id, type: n.type, title: n.title, body: htmlToText(n.body), url: n.url, updatedAt: n.updatedAt }));
    return { items, cursor: null, hasNext: false } as PageOf<E>;
  }
  return {
    platform: 'shopify',
    entities: ['policy', 'product', 'order'],
    pull,
    get throttled() {
      return client.throttled;
    },
  };
}
