// lang-check: emulated protocol — its error messages are the emulated service's own, in its language (server/http/lang.test.ts)
/**
 * A Shopify Admin GraphQL emulator: the part of the protocol the sync uses — `products` and
 * `orders` connections with `first` / `after` / `query: "updated_at:>'…'"` / sortKey UPDATED_AT
 * and `pageInfo { hasNextPage endCursor }`, `shop { shopPolicies }`, the access-token check, and
 * cost-based throttling (a leaky bucket: requestedQueryCost = first + 2; a query that does not fit
 * gets `errors[].extensions.code = THROTTLED` with `extensions.cost.throttleStatus`).
 *
 * It answers in-process for the demo's sandbox shops (server/shops/sandbox.ts) and behind a local
 * HTTP server in the tests (tests/api/shopify/emulator-server.ts). Queries are recognised by the
 * connection they select, not parsed as GraphQL: it is an emulator of these calls, not a server.
 */
import type { GraphqlReply } from './graphql.js';

export interface EmuProduct {
  id: string;
  title: string;
  handle: string;
  status: string;
  descriptionHtml: string;
  updatedAt: string;
}
export interface EmuOrder {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  updatedAt: string;
  displayFinancialStatus: string;
  displayFulfillmentStatus: string;
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
  customer: { displayName: string };
}
export interface EmuPolicy {
  id: string;
  type: string;
  title: string;
  body: string;
  url: string;
  updatedAt: string;
}

export interface EmulatorStore {
  domain: string;
  /** the access token it accepts */
  token: string;
  products: EmuProduct[];
  orders: EmuOrder[];
  policies: EmuPolicy[];
  bucket: { max: number; available: number; rate: number; at: number };
  /** tests: answer the next N queries THROTTLED whatever the bucket holds */
  throttleNext: number;
  /** what it answered: queries, THROTTLED replies, records served per kind */
  served: { queries: number; throttled: number; product: number; order: number; policy: number };
}

export function newStore(domain: string, token: string, bucket = { max: 1000, rate: 100 }): EmulatorStore {
  return {
    domain,
    token,
    products: [],
    orders: [],
    policies: [],
    bucket: { max: bucket.max, available: bucket.max, rate: bucket.rate, at: Date.now() },
    throttleNext: 0,
    served: { queries: 0, throttled: 0, product: 0, order: 0, policy: 0 },
  };
}

const stripHtml = (h: string) => h.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const encodeCursor = (r: { updatedAt: string; id: string }) => Buffer.from(JSON.stringify([r.updatedAt, r.id])).toString('base64url');
function decodeCursor(c: unknown): [string, string] | null {
  if (typeof c !== 'string' || !c) return null;
  try {
    const v = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as unknown;
    return Array.isArray(v) && v.length === 2 ? [String(v[0]), String(v[1])] : null;
  } catch {
    return null;
  }
}
/** the numeric tail of a GID, so ids sort as Shopify's do */
const idNum = (gid: string) => Number(/(\d+)$/.exec(gid)?.[1] ?? 0);
const byUpdated = (a: { updatedAt: string; id: string }, b: { updatedAt: string; id: string }) =>
  Date.parse(a.updatedAt) - Date.parse(b.updatedAt) || idNum(a.id) - idNum(b.id);
const after = (r: { updatedAt: string; id: string }, c: [string, string]) => byUpdated(r, { updatedAt: c[0], id: c[1] }) > 0;

/** `updated_at:>'2025-01-01T00:00:00Z'` (or >=) → the bound; anything else in the filter is refused. */
function parseFilter(q: unknown): { ok: true; test: (r: { updatedAt: string }) => boolean } | { ok: false } {
  if (q === null || q === undefined || q === '') return { ok: true, test: () => true };
  const m = /^updated_at:(>=?)'?([^']+)'?$/.exec(String(q).trim());
  if (!m || Number.isNaN(Date.parse(m[2]))) return { ok: false };
  const bound = Date.parse(m[2]);
  return { ok: true, test: (r) => (m[1] === '>=' ? Date.parse(r.updatedAt) >= bound : Date.parse(r.updatedAt) > bound) };
}

function refill(s: EmulatorStore, now: number): void {
  s.bucket.available = Math.min(s.bucket.max, s.bucket.available + ((now - s.bucket.at) / 1000) * s.bucket.rate);
  s.bucket.at = now;
}

const throttleStatus = (s: EmulatorStore) => ({
  maximumAvailable: s.bucket.max,
  currentlyAvailable: Math.floor(s.bucket.available),
  restoreRate: s.bucket.rate,
});

const error = (status: number, message: string, code?: string): GraphqlReply => ({
  status,
  json: { errors: [{ message, ...(code ? { extensions: { code } } : {}) }] },
});

/** Answers one Admin GraphQL request as Shopify would (for the calls above). */
export function handleGraphql(s: EmulatorStore, token: string | undefined, body: unknown, now = Date.now()): GraphqlReply {
  if (!token || token !== s.token) return { status: 401, json: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } as never };
  const b = (body ?? {}) as { query?: unknown; variables?: Record<string, unknown> };
  const query = typeof b.query === 'string' ? b.query : '';
  const vars = b.variables ?? {};
  const kind = /\bproducts\s*\(/.test(query) ? 'product' : /\borders\s*\(/.test(query) ? 'order' : /\bshopPolicies\b/.test(query) ? 'policy' : null;
  if (!kind) return error(200, 'the emulator answers products, orders and shop { shopPolicies } only', 'NOT_SUPPORTED');
  s.served.queries++;
  const first = kind === 'policy' ? 1 : Number(vars.first);
  if (!Number.isInteger(first) || first < 1 || first > 250) return error(200, 'first must be between 1 and 250', 'BAD_REQUEST');
  const requested = first + 2;
  refill(s, now);
  if (s.throttleNext > 0 || s.bucket.available < requested) {
    if (s.throttleNext > 0) {
      s.throttleNext--;
      // a forced throttle leaves the bucket nearly empty, as a real one would find it
      s.bucket.available = Math.min(s.bucket.available, Math.max(0, requested / 2));
    }
    s.served.throttled++;
    return {
      status: 200,
      json: {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus(s) } },
      },
    };
  }
  let data: Record<string, unknown>;
  let actual: number;
  if (kind === 'policy') {
    data = { shop: { shopPolicies: s.policies.map((p) => ({ ...p })) } };
    s.served.policy += s.policies.length;
    actual = 1 + s.policies.length;
  } else {
    const filter = parseFilter(vars.query);
    if (!filter.ok) return error(200, `unsupported query filter: ${String(vars.query).slice(0, 80)}`, 'BAD_REQUEST');
    const cursor = vars.after ? decodeCursor(vars.after) : null;
    if (vars.after && !cursor) return error(200, 'Invalid cursor for current pagination.', 'BAD_REQUEST');
    const all = (kind === 'product' ? s.products : s.orders) as Array<EmuProduct | EmuOrder>;
    const rows = all.filter((r) => filter.test(r) && (!cursor || after(r, cursor))).sort(byUpdated);
    const page = rows.slice(0, first);
    const nodes = page.map((r) => (kind === 'product' ? { ...(r as EmuProduct), description: stripHtml((r as EmuProduct).descriptionHtml) } : { ...r }));
    const conn = { pageInfo: { hasNextPage: rows.length > first, endCursor: page.length ? encodeCursor(page[page.length - 1]) : null }, nodes };
    data = kind === 'product' ? { products: conn } : { orders: conn };
    s.served[kind] += page.length;
    actual = 2 + page.length;
  }
  s.bucket.available -= actual;
  return { status: 200, json: { data, extensions: { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: throttleStatus(s) } } } };
}

/** Deterministic products of a store: `n` products whose updatedAt grows a minute apart from `start`. */
export function fillProducts(s: EmulatorStore, n: number, start = Date.parse('2025-01-01T00:00:00Z'), offset = 0): void {
  const kinds = ['wool beanie', 'canvas tote', 'rain jacket', 'linen shirt', 'trail shoe', 'ceramic mug', 'desk lamp', 'yoga mat'];
  for (let i = 0; i < n; i++) {
    const k = kinds[(offset + i) % kinds.length];
    const no = offset + i + 1;
    s.products.push({
      id: `gid://shopify/Product/${7_000_000_000 + no}`,
      title: `${k.replace(/^./, (c) => c.toUpperCase())} no. ${no}`,
      handle: `${k.replace(/ /g, '-')}-${no}`,
      status: 'ACTIVE',
      descriptionHtml: `<p>The ${k} no. ${no}: made to last. Care: follow the label; questions go to our support team.</p>`,
      updatedAt: new Date(start + i * 60_000).toISOString(),
    });
  }
}

/** Deterministic orders (`n`, a day apart backwards from `end`). */
export function fillOrders(s: EmulatorStore, n: number, end = Date.parse('2025-01-10T00:00:00Z')): void {
  const fin = ['PAID', 'PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'];
  const ful = ['FULFILLED', 'UNFULFILLED', 'PARTIALLY_FULFILLED'];
  for (let i = 0; i < n; i++) {
    const at = new Date(end - i * 3_600_000).toISOString();
    s.orders.push({
      id: `gid://shopify/Order/${5_000_000_000 + i + 1}`,
      name: `#${1001 + i}`,
      email: `buyer${i + 1}@example.com`,
      createdAt: at,
      updatedAt: at,
      displayFinancialStatus: fin[i % fin.length],
      displayFulfillmentStatus: ful[i % ful.length],
      totalPriceSet: { shopMoney: { amount: (19.9 + i * 3).toFixed(2), currencyCode: 'USD' } },
      customer: { displayName: `Buyer ${i + 1}` },
    });
  }
}

/** The four policies a shop usually has, with texts a customer's question can find. */
export function fillPolicies(s: EmulatorStore, at = '2025-01-01T00:00:00Z'): void {
  const p = (n: number, type: string, title: string, body: string) =>
    s.policies.push({ id: `gid://shopify/ShopPolicy/${9_000_000 + n}`, type, title, body, url: `https://${s.domain}/policies/${type.toLowerCase()}`, updatedAt: at });
  p(1, 'REFUND_POLICY', 'Refund policy', '<p>You may return an unworn item within <strong>30 days</strong> of delivery for a full refund. Refunds reach the original payment method within 5 business days of the return arriving.</p>');
  p(2, 'SHIPPING_POLICY', 'Shipping policy', '<p>Orders ship within 2 business days. Standard delivery takes 5 to 8 business days; express delivery 2 to 3.</p>');
  p(3, 'PRIVACY_POLICY', 'Privacy policy', '<p>We use your address and e-mail only to deliver your order and answer your questions. We never sell personal data.</p>');
  p(4, 'TERMS_OF_SERVICE', 'Terms of service', '<p>Prices include taxes where the law requires. An order is accepted when we send its shipping confirmation.</p>');
}
