import type { Db, Queryable } from '../db.js';

export const LARGE = { users: 50_000, shops: 100_000, orders: 1_000_000, policies: 200_000, materials: 100_000, mail: 100_000 };

/** Deterministic pseudo-random integer in [0, mod) from the row number `i` and a salt (pure SQL). */
const h = (salt: number, mod: number) => `(((i::bigint * ${2654435761 + salt * 40503}) + ${salt * 97 + 13}) % 4294967291 % ${mod})::int`;
const pick = (salt: number, list: string[]) => `(ARRAY[${list.map((s) => `'${s}'`).join(',')}])[1 + ${h(salt, list.length)}]`;

/**
 * Runs a bulk insert with the table's secondary indexes dropped, then rebuilds them (much faster
 * than maintaining 6–8 indexes row by row). All in one transaction: a failure leaves the table as it was.
 */
async function bulk(db: Db, table: string, sql: string): Promise<void> {
  await db.tx(async (q) => {
    const idx = await q.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1
          AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass)`,
      [table],
    );
    for (const i of idx.rows) await q.query(`DROP INDEX ${i.indexname}`);
    await q.query(sql);
    for (const i of idx.rows) await q.query(i.indexdef);
  });
}

async function count(db: Queryable, table: string): Promise<number> {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
}

/** Benchmark volume on top of the demo data: ≥100k shops, ≥1M orders (idempotent by counts). */
export async function seedLarge(db: Db, log: (s: string) => void = () => undefined): Promise<void> {
  const t0 = Date.now();
  const step = (s: string) => log(`${s} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const users = LARGE.users - (await count(db, 'merchant_user'));
  if (users > 0) {
    await bulk(db, 'merchant_user', `
      INSERT INTO merchant_user (name, email, country_code, status, created_at, updated_at)
      SELECT ${pick(1, ['Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Lucas', 'Mia', 'Wei', 'Yuki', 'Sofia'])} || ' ' || ${pick(2, ['Smith', 'Garcia', 'Müller', 'Wang', 'Tanaka', 'Silva', 'Rossi', 'Kim'])},
             'merchant' || i || '@bench.example.com', ${pick(3, ['US', 'GB', 'DE', 'FR', 'CN', 'JP', 'CA', 'AU'])}, CASE WHEN ${h(4, 20)} = 0 THEN 0 ELSE 1 END,
             timestamptz '2024-01-01' + interval '1 day' * ${h(5, 700)}, timestamptz '2024-01-01'
        FROM generate_series(1, ${users}) i`);
    step(`merchant users +${users}`);
  }
  const shops = LARGE.shops - (await count(db, 'shop'));
  if (shops > 0) {
    await bulk(db, 'shop', `
      WITH u AS (SELECT array_agg(id ORDER BY id) a FROM merchant_user)
      INSERT INTO shop (name, type, user_id, link, plugin_status, plugin_activated_at, is_test, is_ka, is_bpo, active, country_code,
                        ai_status, authorize_status, authorize_expires_at, creation_source, env, created_at, updated_at)
      SELECT ${pick(6, ['Nova', 'Luna', 'Peak', 'Urban', 'Coast', 'Maple', 'Aurora', 'Cedar', 'Bloom', 'Atlas'])} || ' ' || ${pick(7, ['Outdoor', 'Pets', 'Home', 'Beauty', 'Kitchen', 'Tech', 'Style', 'Toys'])} || ' ' || i,
             1 + ${h(8, 4)}, u.a[1 + ${h(9, 1000000)} % array_length(u.a, 1)], 'https://bench-' || i || '.myshopify.com',
             ${h(10, 3)}, timestamptz '2024-06-01' + interval '1 day' * ${h(11, 500)}, ${h(12, 20)} = 0, ${h(13, 9)} = 0, ${h(14, 12)} = 0, ${h(15, 8)} <> 0,
             ${pick(16, ['US', 'GB', 'DE', 'FR', 'CN', 'JP', 'CA', 'AU', 'SG', 'NL'])}, ${h(17, 2)}, ${h(18, 3)},
             timestamptz '2026-01-01' + interval '1 day' * ${h(19, 600)}, ${h(20, 3)}, ${pick(21, ['prod', 'prod', 'prod', 'prod', 'prod', 'prod', 'dev', 'pre', 'pre2', 'pre3'])},
             timestamptz '2024-01-01' + interval '1 day' * ${h(22, 1000)}, now()
        FROM generate_series(1, ${shops}) i, u`);
    step(`shops +${shops}`);
  }
  const orders = LARGE.orders - (await count(db, 'shop_order'));
  if (orders > 0) {
    await bulk(db, 'shop_order', `
      WITH s AS (SELECT array_agg(id ORDER BY id) a FROM shop)
      INSERT INTO shop_order (shop_id, name, email, customer_name, amount, currency, financial_status, fulfillment_status,
                              tracking_company, tracking_number, created_at, raw)
      SELECT x.shop_id, '#' || (1000 + i), 'buyer' || ${h(23, 300000)} || '@' || ${pick(24, ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com'])},
             ${pick(25, ['Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Lucas'])} || ' ' || ${pick(26, ['Smith', 'Garcia', 'Brown', 'Lee'])},
             (${h(27, 50000)} + 990) / 100.0, 'USD', x.fin, x.ful,
             CASE WHEN x.ful IN ('fulfilled', 'partial') THEN ${pick(28, ['UPS', 'USPS', 'FedEx', 'DHL Express'])} END,
             CASE WHEN x.ful IN ('fulfilled', 'partial') THEN '1Z' || (100000000 + ${h(29, 899999999)}) END,
             x.at, jsonb_build_object('id', 6000000000 + i, 'name', '#' || (1000 + i), 'financial_status', x.fin, 'fulfillment_status', x.ful)
        FROM generate_series(1, ${orders}) i, s,
             LATERAL (SELECT s.a[1 + ${h(30, 10000000)} % array_length(s.a, 1)] AS shop_id,
                             ${pick(31, ['paid', 'paid', 'paid', 'paid', 'paid', 'paid', 'pending', 'refunded', 'partially_refunded', 'voided'])} AS fin,
                             ${pick(32, ['fulfilled', 'fulfilled', 'fulfilled', 'unfulfilled', 'unfulfilled', 'partial', 'restocked'])} AS ful,
                             timestamptz '2025-01-01' + interval '1 minute' * ${h(33, 680 * 1440)} AS at) x`);
    step(`orders +${orders}`);
  }
  const policies = LARGE.policies - (await count(db, 'policy'));
  if (policies > 0) {
    await bulk(db, 'policy', `
      WITH s AS (SELECT array_agg(id ORDER BY id) a FROM shop)
      INSERT INTO policy (shop_id, title, content, source_type, channel, status, created_at, updated_at)
      SELECT s.a[1 + ${h(34, 10000000)} % array_length(s.a, 1)], ${pick(35, ['Shipping times', 'Return policy', 'Order tracking', 'Warranty', 'Size guide'])} || ' ' || i,
             'Benchmark policy text ' || i, 1 + ${h(36, 11)}, ${pick(37, ['chat', 'email'])}, 1, now(), now()
        FROM generate_series(1, ${policies}) i, s`);
    step(`policies +${policies}`);
  }
  const materials = LARGE.materials - (await count(db, 'learn_material'));
  if (materials > 0) {
    await bulk(db, 'learn_material', `
      WITH s AS (SELECT array_agg(id ORDER BY id) a FROM shop)
      INSERT INTO learn_material (shop_id, channel, source_type, subject, question, answer, status, created_at, updated_at)
      SELECT s.a[1 + ${h(38, 10000000)} % array_length(s.a, 1)], ${pick(39, ['chat', 'email'])}, 3,
             ${pick(40, ['Where is my order', 'Refund status', 'Change address', 'Damaged item'])} || ' ' || i,
             'Customer question ' || i, 'Agent answer ' || i, ${h(41, 3)}, timestamptz '2025-06-01' + interval '1 day' * ${h(42, 500)}, now()
        FROM generate_series(1, ${materials}) i, s`);
    step(`learn materials +${materials}`);
  }
  const mail = LARGE.mail - (await count(db, 'mail_account'));
  if (mail > 0) {
    await bulk(db, 'mail_account', `
      INSERT INTO mail_account (shop_id, email) SELECT id, 'support@bench-' || id || '.example.com' FROM shop WHERE id > (SELECT coalesce(max(shop_id), 0) FROM mail_account) ORDER BY id LIMIT ${mail}`);
    step(`mail accounts +${mail}`);
  }
  await db.exec('ANALYZE');
  step('analyze');
}
