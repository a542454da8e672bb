import type { Queryable } from '../db.js';
import { insertMany, insertRows } from './insert.js';
import { productDescOf, productPolicyOf, profileOf } from './knowledge.js';
import { daysAgo, DEMO_NOW, type Rng } from './random.js';
import { BRAND_A, BRAND_B, CITIES, CN_NAMES, CN_PRODUCTS, CN_SHOP_A, CN_SHOP_B, COUNTRIES, FIRST, LAST, PRODUCTS, slug } from './words.js';

export interface ShopInfo {
  id: number;
  type: number;
  userId: number;
  country: string;
  slug: string;
  active: boolean;
}

/** Merchant users, their shops (Shopify, Douyin, Shopline, custom; every env) and mail accounts. */
export async function seedMerchants(db: Queryable, rng: Rng, users: number, shopsPerUser: [number, number]) {
  const userRows: unknown[][] = [];
  const userCountry: string[] = [];
  for (let i = 0; i < users; i++) {
    const cn = rng.chance(0.25);
    const country = cn ? 'CN' : rng.pick(COUNTRIES);
    const first = cn ? rng.pick(CN_NAMES) : `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
    const email = `${cn ? `merchant${i + 1}` : slug(first).replace(/-/g, '.')}${i + 1}@${cn ? 'qq.com' : rng.pick(['gmail.com', 'outlook.com', 'proton.me', 'icloud.com'])}`;
    userCountry.push(country);
    const at = daysAgo(rng, 720, 30);
    userRows.push([first, email, rng.chance(0.6) ? `+${rng.int(1, 99)} ${rng.int(100000000, 999999999)}` : null, country, rng.chance(0.93) ? 1 : 0, at, at]);
  }
  const userIds = await insertMany(db, 'merchant_user', ['name', 'email', 'phone', 'country_code', 'status', 'created_at', 'updated_at'], userRows);

  const shops: ShopInfo[] = [];
  const shopRows: unknown[][] = [];
  const used = new Set<string>();
  userIds.forEach((userId, ui) => {
    const country = userCountry[ui];
    const n = rng.int(shopsPerUser[0], shopsPerUser[1]);
    for (let k = 0; k < n; k++) {
      const type = country === 'CN' ? rng.weighted([[2, 8], [1, 1]] as const) : rng.weighted([[1, 7], [3, 2], [4, 1]] as const);
      let name = type === 2 ? `${rng.pick(CN_SHOP_A)}${rng.pick(CN_SHOP_B)}` : `${rng.pick(BRAND_A)} ${rng.pick(BRAND_B)}`;
      while (used.has(name)) name = `${name} ${rng.int(2, 99)}`;
      used.add(name);
      const s = type === 2 ? `dy${rng.int(1000000, 9999999)}` : slug(name);
      const link =
        type === 1 ? `https://${s}.myshopify.com` : type === 2 ? `https://haohuo.jinritemai.com/views/shop/index?id=${s}` : type === 3 ? `https://${s}.myshopline.com` : `https://www.${s}.com`;
      const env = rng.weighted([['prod', 70], ['dev', 10], ['pre', 10], ['pre2', 5], ['pre3', 5]] as const);
      const plugin = rng.weighted([[1, 7], [0, 2], [2, 1]] as const);
      const created = daysAgo(rng, 700, 5);
      const activated = plugin === 0 ? null : new Date(created.getTime() + rng.int(1, 20) * 86400000);
      const auth = rng.weighted([[1, 7], [0, 1], [2, 2]] as const);
      const expires = auth === 0 ? null : new Date(DEMO_NOW + (auth === 2 ? -rng.int(1, 90) : rng.int(10, 365)) * 86400000);
      const active = rng.chance(0.88);
      shopRows.push([
        name, type, userId, link, plugin, activated, env !== 'prod' || rng.chance(0.03), rng.chance(0.12), rng.chance(0.08), active,
        type === 2 ? 'CN' : rng.chance(0.8) ? country : rng.pick(COUNTRIES), plugin === 1 && rng.chance(0.8) ? 1 : 0, auth, expires,
        rng.weighted([[0, 3], [1, 6], [2, 1]] as const), env, created, created,
      ]);
      shops.push({ id: 0, type, userId, country, slug: s, active });
    }
  });
  const ids = await insertMany(db, 'shop', [
    'name', 'type', 'user_id', 'link', 'plugin_status', 'plugin_activated_at', 'is_test', 'is_ka', 'is_bpo', 'active',
    'country_code', 'ai_status', 'authorize_status', 'authorize_expires_at', 'creation_source', 'env', 'created_at', 'updated_at',
  ], shopRows);
  ids.forEach((id, i) => (shops[i].id = id));

  const mail: unknown[][] = [];
  for (const s of shops) {
    if (s.type === 2) continue;
    const domain = s.type === 1 || s.type === 3 ? `${s.slug}.com` : `${s.slug}.com`;
    mail.push([s.id, `support@${domain}`]);
    if (rng.chance(0.4)) mail.push([s.id, `${rng.pick(['help', 'service', 'orders', 'hello'])}@${domain}`]);
  }
  await insertRows(db, 'mail_account', ['shop_id', 'email'], mail);
  return { userIds, shops };
}

/** Shopify-style orders with financial / fulfilment states, tracking and the raw source JSON. */
export async function seedOrders(db: Queryable, rng: Rng, shops: ShopInfo[], count: number) {
  const pool = shops.filter((s) => s.type !== 2);
  const rows: unknown[][] = [];
  const counters = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const shop = rng.pick(pool);
    const n = (counters.get(shop.id) ?? 1000) + 1;
    counters.set(shop.id, n);
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const email = `${first}.${last}${rng.int(1, 999)}@${rng.pick(['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com'])}`.toLowerCase();
    const fin = rng.weighted([['paid', 70], ['pending', 6], ['authorized', 4], ['partially_paid', 2], ['partially_refunded', 5], ['refunded', 8], ['voided', 5]] as const);
    const ful = fin === 'voided' || fin === 'pending' ? 'unfulfilled' : rng.weighted([['fulfilled', 65], ['unfulfilled', 22], ['partial', 8], ['restocked', 5]] as const);
    const tracked = ful === 'fulfilled' || ful === 'partial';
    const company = tracked ? rng.pick(['UPS', 'USPS', 'FedEx', 'DHL Express', 'Royal Mail', 'Canada Post']) : null;
    const tracking = tracked ? `${company === 'UPS' ? '1Z' : ''}${rng.int(100000000, 999999999)}${rng.int(1000, 9999)}` : null;
    const amount = Math.round((rng.next() ** 2 * 480 + 9.9) * 100) / 100;
    const at = daysAgo(rng, 365);
    const currency = shop.country === 'GB' ? 'GBP' : ['DE', 'FR', 'NL'].includes(shop.country) ? 'EUR' : shop.country === 'JP' ? 'JPY' : 'USD';
    const product = rng.pick(PRODUCTS);
    const raw = {
      id: 5000000000 + i,
      name: `#${n}`,
      email,
      created_at: at.toISOString(),
      currency,
      total_price: amount.toFixed(2),
      financial_status: fin,
      fulfillment_status: ful === 'unfulfilled' ? null : ful,
      customer: { first_name: first, last_name: last, email },
      shipping_address: { city: CITIES[shop.country] ?? 'Austin', country_code: shop.country },
      line_items: [{ title: product, quantity: rng.int(1, 3), price: amount.toFixed(2) }],
      fulfillments: tracked ? [{ tracking_company: company, tracking_number: tracking, status: 'success' }] : [],
    };
    rows.push([shop.id, `#${n}`, email, `${first} ${last}`, amount, currency, fin, ful, company, tracking, at, JSON.stringify(raw)]);
  }
  await insertRows(db, 'shop_order', ['shop_id', 'name', 'email', 'customer_name', 'amount', 'currency', 'financial_status', 'fulfillment_status', 'tracking_company', 'tracking_number', 'created_at', 'raw'], rows, 300);
}

/** Douyin products with their after-sales policy, and product descriptions for other shops. */
export async function seedProducts(db: Queryable, rng: Rng, shops: ShopInfo[]) {
  const dy: unknown[][] = [];
  const desc: unknown[][] = [];
  for (const s of shops) {
    if (s.type === 2) {
      const n = rng.int(0, 4);
      for (let k = 0; k < n; k++) {
        const title = rng.pick(CN_PRODUCTS);
        dy.push([s.id, `${rng.int(3000000000, 3999999999)}${k}`, title, rng.int(19, 899) + 0.9, productPolicyOf(profileOf(s), title), rng.chance(0.2) ? '需要人工复核' : '', rng.chance(0.9) ? 1 : 0]);
      }
    } else if (rng.chance(0.35)) {
      const n = rng.int(1, 3);
      for (let k = 0; k < n; k++) {
        const title = rng.pick(PRODUCTS);
        const status = rng.weighted([[2, 6], [0, 2], [1, 1], [3, 1]] as const);
        desc.push([s.id, String(rng.int(7000000000, 7999999999)), title, `<p>${title} — crafted for everyday use.</p>`, status === 2 ? productDescOf(profileOf(s), title) : '', status]);
      }
    }
  }
  await insertRows(db, 'douyin_product', ['shop_id', 'product_id', 'title', 'price', 'policy', 'remark', 'status'], dy);
  await insertRows(db, 'product_desc', ['shop_id', 'product_id', 'title', 'description', 'identified_desc', 'status'], desc);
}
