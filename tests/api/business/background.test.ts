// @db both — background work on the queue with the engine clock
/**
 * Background work of issue 10 and the learning loop of issue 13, on a real database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL), with the engine clock under the test's control:
 * - 重新识别 runs as a job and finishes by itself (built-in extraction without a model server,
 *   the model through the gateway with one — a stand-in OpenAI-compatible server);
 * - an auto-learn schedule fires once per due time, at its time in its time zone, mines human
 *   replies into candidates; 采纳 creates a policy (source 5), 拒绝 needs a reason;
 * - learning material → knowledge → policy;
 * - a pushed notification writes one delivery per shop; the merchant read call bumps the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledClock } from '../../../server/jobs/clock.js';
import { autoLearnTicker } from '../../../server/resources/learning/auto-learn-schedule.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';
import { startFakeOpenAI } from '../ai/fake-openai.js';

const clock = new ControlledClock('2026-05-01T00:00:00Z');
let s: TestServer;
let admin: ApiClient;

const one = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T> => (await s.db.query<T>(sql, params)).rows[0];
const num = async (sql: string, params: unknown[] = []): Promise<number> => Number((await one<{ n: number }>(sql, params)).n);
const shop = async (name: string, type = 1, active = true): Promise<number> =>
  Number((await one<{ id: number }>(`INSERT INTO shop (name, type, active) VALUES ($1, $2, $3) RETURNING id`, [name, type, active])).id);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  s = await startServer({ clock });
  admin = await s.login();
});
afterAll(async () => s?.close());

describe('重新识别 (product descriptions)', () => {
  it('enqueues a job with the status change; the job identifies the attributes by itself (built-in extraction)', async () => {
    const shopId = await shop('Desc shop');
    const id = Number(
      (
        await one<{ id: number }>(
          `INSERT INTO product_desc (shop_id, product_id, title, description, status) VALUES ($1, 'p-1', 'Merino Tee', $2, 3) RETURNING id`,
          [shopId, '<p>Soft merino wool tee. Price: $49.90. Sizes: S, M, L, XL.</p><p>Ships in 1-2 business days. 30-day returns.</p>'],
        )
      ).id,
    );
    const r = await admin.ok('POST', 'shop-product-desc/reidentify', { id });
    expect(r.status).toBe(0);
    expect(r.identify_job_id).toBeGreaterThan(0);
    const job = await one<{ kind: string; ref_type: string; ref_id: string }>(`SELECT kind, ref_type, ref_id FROM work_job WHERE id = $1`, [r.identify_job_id]);
    expect(job).toMatchObject({ kind: 'product.reidentify', ref_type: 'product_desc' });
    expect(Number(job.ref_id)).toBe(id);

    const done = await until(
      () => one<{ status: number; identified_desc: string; identify_method: string; attributes: Record<string, unknown> }>(`SELECT * FROM product_desc WHERE id = $1`, [id]),
      (d) => d.status === 2 || d.status === 3,
    );
    expect(done.status).toBe(2);
    expect(done.identify_method).toBe('builtin');
    expect(done.identified_desc).toContain('Built-in extraction');
    expect(done.identified_desc).toContain('Price / 价格: $49.90');
    expect(done.attributes).toMatchObject({ price: '$49.90', sizes: ['S', 'M', 'L', 'XL'], materials: ['wool'], returns: '30 days', shipping: '1-2 days' });
    // the job's own final state is written by the engine's batched completion just after the handler's change commits
    const list = await until(() => admin.ok('GET', 'shop-product-desc/list', { shop_id: shopId }), (l) => l.list[0]?.identify_job_state !== 'running');
    expect(list.list[0]).toMatchObject({ status: 2, identify_method: 'builtin', identify_job_state: 'done' });
  });

  it('a description with nothing to read fails with the reason', async () => {
    const shopId = await shop('Empty desc shop');
    const id = Number((await one<{ id: number }>(`INSERT INTO product_desc (shop_id, product_id, title, description) VALUES ($1, 'p-2', '', '') RETURNING id`, [shopId])).id);
    await admin.ok('POST', 'shop-product-desc/reidentify', { id });
    const done = await until(() => one<{ status: number; identify_error: string }>(`SELECT * FROM product_desc WHERE id = $1`, [id]), (d) => d.status === 3);
    expect(done.identify_error).toContain('nothing to identify');
  });

  it('an unknown description enqueues nothing', async () => {
    const before = await num(`SELECT count(*)::int AS n FROM work_job`);
    expect((await admin.post('shop-product-desc/reidentify', { id: 99999999 })).body.code).toBe(40004);
    expect(await num(`SELECT count(*)::int AS n FROM work_job`)).toBe(before);
  });
});

describe('auto-learn', () => {
  let shopId: number;
  let ruleId: number;

  const chat = async (q: string, a: string, at: string) => {
    const sid = Number((await one<{ id: number }>(`INSERT INTO chat_session (shop_id, started_at) VALUES ($1, $2) RETURNING id`, [shopId, at])).id);
    const t = new Date(at).getTime();
    await s.db.query(
      `INSERT INTO chat_message (session_id, msg_type, sender, content, sent_at) VALUES
         ($1, 1, 'Customer', $2, $4), ($1, 2, 'AI', 'Let me check that for you.', $5), ($1, 4, 'Agent Lisa', $3, $6)`,
      [sid, q, a, new Date(t), new Date(t + 30_000), new Date(t + 60_000)],
    );
  };
  const mineJobs = () => s.db.query<{ id: number; state: string; result: Record<string, number> }>(`SELECT id, state, result FROM work_job WHERE kind = 'autolearn.mine' AND ref_id = $1 ORDER BY id`, [ruleId]);

  beforeAll(async () => {
    shopId = await shop('Learning shop');
    await shop('Not learning shop');
    await admin.ok('POST', 'config/auto-learn-shop/create', { shop_id: shopId, learn_policy: true, learn_product: false });
    await admin.ok('POST', 'shop/policy/create', { shop_id: shopId, title: 'Return policy', content: 'Returns are accepted within 30 days of delivery.', source_type: 1, channel: 'chat' });
    await chat('How long does shipping to Canada take?', 'Shipping to Canada takes 5 to 8 business days with Canada Post, and the tracking number is emailed once the parcel leaves our warehouse.', '2026-04-30T10:00:00Z');
    await chat('Can I talk to a person?', 'Hi, this is Lisa. I can help you with that.', '2026-04-30T11:00:00Z');
    await chat('What is your return policy?', 'You can return items within 30 days of delivery for a full refund.', '2026-04-30T12:00:00Z');
    const mail = Number((await one<{ id: number }>(`INSERT INTO mail_session (shop_id, subject, customer_email) VALUES ($1, 'Gift wrap', 'c@example.com') RETURNING id`, [shopId])).id);
    await s.db.query(
      `INSERT INTO mail_message (session_id, direction_type, from_addr, body, is_ai, sent_at) VALUES
         ($1, 1, 'c@example.com', 'Hello, Do you offer gift wrapping for birthday orders? Thanks, Carol', 0, '2026-04-30T13:00:00Z'),
         ($1, 4, 'support@shop.com', 'Dear Carol,\n\nYes: gift wrapping costs 3 dollars per order and you can add a personal card message at checkout.\n\nBest regards', 0, '2026-04-30T14:00:00Z')`,
      [mail],
    );
  });

  it('refuses a schedule that cannot run (40001 naming the field)', async () => {
    const base = { name: 'x', source_type: 1, schedule_type: 'daily', run_time: '09:00' };
    const tz = await admin.post('config/auto-learn/create', { ...base, time_zone: 'Mars/Olympus' });
    expect(tz.body.code).toBe(40001);
    expect(tz.body.data.errors[0].field).toBe('time_zone');
    const cron = await admin.post('config/auto-learn/create', { ...base, schedule_type: 'cron', cron: 'every day', time_zone: 'UTC' });
    expect(cron.body.data.errors[0].field).toBe('cron');
    const often = await admin.post('config/auto-learn/create', { ...base, schedule_type: 'cron', cron: '* * * * *', time_zone: 'UTC' });
    expect(often.body.data.errors[0].field).toBe('cron');
  });

  it('fires once per due time, at its time in its time zone, and mines candidates', async () => {
    const rule = await admin.ok('POST', 'config/auto-learn/create', {
      name: 'Daily 09:00 Shanghai',
      source_type: 1,
      min_confidence: 0.8,
      schedule_type: 'daily',
      run_time: '09:00',
      time_zone: 'Asia/Shanghai',
    });
    ruleId = rule.id;
    // 09:00 in Shanghai is 01:00 UTC
    expect(rule.next_run_at).toBe('2026-05-01T01:00:00.000Z');
    await sleep(4500); // two ticks before the due time: nothing
    expect((await mineJobs()).rows).toHaveLength(0);

    clock.set('2026-05-01T01:00:10Z');
    const [job] = (await until(mineJobs, (r) => r.rows.length === 1 && r.rows[0].state === 'done')).rows;
    await sleep(4500); // more ticks in the same due time: still one run
    expect((await mineJobs()).rows).toHaveLength(1);
    expect(job.result).toMatchObject({ created: 2, not_a_question: 1, covered: 1 });
    const after = await admin.ok('GET', 'config/auto-learn/detail', { id: ruleId });
    expect(after).toMatchObject({ last_run_at: '2026-05-01T01:00:00.000Z', next_run_at: '2026-05-02T01:00:00.000Z', last_job_state: 'done' });

    const cands = await admin.ok('GET', 'shop/learn-policy/list', { shop_id: shopId, rule_id: ruleId });
    expect(cands.total).toBe(2);
    const byQ = Object.fromEntries(cands.list.map((c: { question: string }) => [c.question, c]));
    expect(byQ['How long does shipping to Canada take?']).toMatchObject({ status: 0, source: 'chat', channel: 'chat' });
    expect(byQ['Do you offer gift wrapping for birthday orders?']).toMatchObject({ status: 0, source: 'mail', channel: 'email' });
    for (const c of cands.list) expect(c.confidence).toBeGreaterThanOrEqual(0.8);

    // the next day: only what is new since the last run
    await chat('Do you ship to Australia?', 'Yes, we ship to Australia: delivery takes 7 to 12 business days and costs 15 dollars, free above 100 dollars.', '2026-05-01T20:00:00Z');
    clock.set('2026-05-02T01:00:10Z');
    const second = await until(mineJobs, (r) => r.rows.length === 2 && r.rows[1].state === 'done');
    expect(second.rows[1].result).toMatchObject({ scanned: 1, created: 1 });
    expect((await admin.ok('GET', 'shop/learn-policy/list', { shop_id: shopId, rule_id: ruleId })).total).toBe(3);
  });

  it('a due time is claimed once even when several tickers run at once (cron in a time zone)', async () => {
    clock.set('2026-05-02T12:00:00Z');
    const rule = await admin.ok('POST', 'config/auto-learn/create', { name: 'Cron 10:30 Tokyo', source_type: 6, schedule_type: 'cron', cron: '30 10 * * *', time_zone: 'Asia/Tokyo' });
    // 10:30 in Tokyo is 01:30 UTC
    expect(rule.next_run_at).toBe('2026-05-03T01:30:00.000Z');
    clock.set('2026-05-03T01:30:01Z');
    const tick = () => autoLearnTicker.run({ db: s.db, now: () => clock.now(), enqueue: s.app.jobs.enqueue, signal: new AbortController().signal });
    await Promise.all([tick(), tick(), tick()]);
    await sleep(2500); // and the engine's own ticker
    const jobs = await s.db.query(`SELECT id FROM work_job WHERE kind = 'autolearn.mine' AND ref_id = $1`, [rule.id]);
    expect(jobs.rows).toHaveLength(1);
    expect(await admin.ok('GET', 'config/auto-learn/detail', { id: rule.id })).toMatchObject({ next_run_at: '2026-05-04T01:30:00.000Z' });
  });

  it('采纳 creates a policy (source 5) in the same change; 拒绝 records why', async () => {
    const cands = (await admin.ok('GET', 'shop/learn-policy/list', { shop_id: shopId, rule_id: ruleId, sort_by: 'id', sort_order: 'asc' })).list;
    const [a, b] = cands;
    const policies = await num(`SELECT count(*)::int AS n FROM policy WHERE shop_id = $1`, [shopId]);
    const adopted = await admin.ok('POST', 'shop/learn-policy/update', { id: a.id, status: 1 });
    expect(adopted.status).toBe(1);
    expect(adopted.policy_id).toBeGreaterThan(0);
    const p = await one<{ shop_id: number; title: string; content: string; source_type: number; channel: string }>(`SELECT * FROM policy WHERE id = $1`, [adopted.policy_id]);
    expect(p).toMatchObject({ shop_id: shopId, title: a.question, source_type: 5, channel: a.channel });
    expect(p.content).toBe((await one<{ answer: string }>(`SELECT answer FROM learn_policy WHERE id = $1`, [a.id])).answer);
    expect(await num(`SELECT count(*)::int AS n FROM policy WHERE shop_id = $1`, [shopId])).toBe(policies + 1);
    // final once adopted
    expect((await admin.post('shop/learn-policy/update', { id: a.id, status: 2, reject_reason: 'x' })).body.code).toBe(40009);

    const noReason = await admin.post('shop/learn-policy/update', { id: b.id, status: 2 });
    expect(noReason.body.code).toBe(40001);
    expect(noReason.body.data.errors[0].field).toBe('reject_reason');
    const rejected = await admin.ok('POST', 'shop/learn-policy/update', { id: b.id, status: 2, reject_reason: 'Too specific to one order' });
    expect(rejected).toMatchObject({ status: 2, reject_reason: 'Too specific to one order', policy_id: null });
    expect(await num(`SELECT count(*)::int AS n FROM policy WHERE shop_id = $1`, [shopId])).toBe(policies + 1);
  });
});

describe('learning material → knowledge → policy', () => {
  it('writes knowledge from a material, lists it for the material, turns it into a policy', async () => {
    const shopId = await shop('Material shop');
    const m = Number(
      (
        await one<{ id: number }>(
          `INSERT INTO learn_material (shop_id, subject, question, answer) VALUES ($1, 'Warranty', 'How long is the warranty?', 'Two years.') RETURNING id`,
          [shopId],
        )
      ).id,
    );
    const k = await admin.ok('POST', 'learn-knowledge/create', { material_id: m, shop_id: shopId, question: 'How long is the warranty?', answer: 'Every product has a two-year warranty.' });
    const list = await admin.ok('GET', 'learn-knowledge/list', { material_id: m });
    expect(list.list).toHaveLength(1);
    expect(list.list[0]).toMatchObject({ id: k.id, material_subject: 'Warranty', policy_id: null });
    const p = await admin.ok('POST', 'learn-knowledge/to-policy', { id: k.id });
    expect(p).toMatchObject({ shop_id: shopId, title: 'How long is the warranty?', source_type: 5 });
    expect((await admin.ok('GET', 'learn-knowledge/list', { material_id: m })).list[0]).toMatchObject({ policy_id: p.id, policy_title: 'How long is the warranty?' });
  });
});

describe('notification push', () => {
  it('a job writes one delivery per active shop of the target types; a merchant read bumps the read count', async () => {
    const shops = [await shop('Push A', 3), await shop('Push B', 3), await shop('Push C', 3), await shop('Push off', 3, false), await shop('Other type', 4)];
    const reach = await num(`SELECT count(*)::int AS n FROM shop WHERE active AND type = 3`);
    const n = await admin.ok('POST', 'notification/add', { title: 'Maintenance', content: 'Sunday 02:00–03:00', target_types: [3] });
    const pushed = await admin.ok('POST', 'notification/push', { id: n.id });
    expect(pushed.status).toBe(2);
    expect(pushed.push_job_id).toBeGreaterThan(0);
    const done = await until(() => admin.ok('GET', 'notification/detail', { id: n.id }), (x) => x.status === 1 && x.push_job_state !== 'running');
    expect(done).toMatchObject({ push_quantity: reach, push_read_count: 0, push_job_state: 'done', push_progress_done: reach, push_progress_total: reach });
    const rows = await s.db.query<{ shop_id: number; n: number }>(`SELECT shop_id, count(*)::int AS n FROM notification_delivery WHERE notification_id = $1 GROUP BY shop_id`, [n.id]);
    expect(rows.rows).toHaveLength(reach);
    expect(rows.rows.every((r) => r.n === 1)).toBe(true);
    const got = new Set(rows.rows.map((r) => Number(r.shop_id)));
    expect(got.has(shops[0]) && got.has(shops[1]) && got.has(shops[2])).toBe(true);
    expect(got.has(shops[3]) || got.has(shops[4])).toBe(false);

    const deliveries = await admin.ok('GET', 'notification/delivery/list', { notification_id: n.id, page_size: 100 });
    const token = deliveries.list.find((d: { shop_id: number }) => d.shop_id === shops[1]).read_token;
    const merchant = s.anon();
    const read = await merchant.post('/api/common/merchant/notification/read', { token });
    expect(read.body.code).toBe(10000);
    expect(read.body.data).toMatchObject({ notification_id: n.id, shop_id: shops[1], first_read: true, push_read_count: 1 });
    const again = await merchant.post('/api/common/merchant/notification/read', { token });
    expect(again.body.data).toMatchObject({ first_read: false, push_read_count: 1 });
    expect((await merchant.post('/api/common/merchant/notification/read', { token: 'f'.repeat(64) })).body.code).toBe(40004);
    expect((await merchant.post('/api/common/merchant/notification/read', { token: 'nope' })).body.code).toBe(40001);
    const listed = (await admin.ok('GET', 'notification/list', { keyword: String(n.id) })).list.find((x: { id: number }) => x.id === n.id);
    expect(listed).toMatchObject({ push_quantity: reach, push_read_count: 1 });

    // a re-push while nothing runs reaches new shops and keeps the read mark
    const late = await shop('Push late', 3);
    await admin.ok('POST', 'notification/push', { id: n.id, force: true });
    const again2 = await until(() => admin.ok('GET', 'notification/detail', { id: n.id }), (x) => x.status === 1 && x.push_quantity === reach + 1);
    expect(again2.push_read_count).toBe(1);
    expect(await num(`SELECT count(*)::int AS n FROM notification_delivery WHERE notification_id = $1 AND shop_id = $2`, [n.id, late])).toBe(1);
  });
});

describe('重新识别 with a model server', () => {
  it('asks the model through the gateway; a failing model ends in status 3 with its reason after the retries', async () => {
    const fake = await startFakeOpenAI();
    try {
      const shopId = await shop('Model desc shop');
      const desc = async (pid: string) =>
        Number(
          (
            await one<{ id: number }>(`INSERT INTO product_desc (shop_id, product_id, title, description) VALUES ($1, $2, 'Silk Scarf', 'Pure silk, 90 x 90 cm.') RETURNING id`, [
              shopId,
              pid,
            ])
          ).id,
        );
      const server = await admin.ok('POST', 'config/model-server/create', { name: 'stand-in', model: 'ok-extractor', endpoint: fake.baseUrl });
      const id = await desc('m-1');
      await admin.ok('POST', 'shop-product-desc/reidentify', { id });
      const done = await until(() => one<{ status: number; identified_desc: string; identify_method: string }>(`SELECT * FROM product_desc WHERE id = $1`, [id]), (d) => d.status >= 2);
      expect(done).toMatchObject({ status: 2, identify_method: 'model' });
      expect(done.identified_desc).toContain('Model stand-in (ok-extractor)');
      expect(done.identified_desc).toContain('answer from extractor');
      const asked = fake.requests.find((r) => r.path === '/v1/chat/completions');
      expect(JSON.stringify(asked?.body.messages)).toContain('Pure silk, 90 x 90 cm.');

      await admin.ok('POST', 'config/model-server/update', { id: server.id, model: 'error-extractor' });
      const bad = await desc('m-2');
      await admin.ok('POST', 'shop-product-desc/reidentify', { id: bad });
      const failed = await until(
        () => one<{ status: number; identify_error: string; identify_job_id: number }>(`SELECT * FROM product_desc WHERE id = $1`, [bad]),
        (d) => d.status === 3,
        60_000,
      );
      expect(failed.identify_error).toContain('failed');
      // the job's own final state follows in the engine's batched completion, just after the handler's change
      const job = await until(() => one<{ state: string; attempts: number }>(`SELECT state, attempts FROM work_job WHERE id = $1`, [failed.identify_job_id]), (j) => j.state !== 'running');
      expect(job).toMatchObject({ state: 'failed', attempts: 3 });
      await admin.ok('POST', 'config/model-server/update', { id: server.id, enabled: false });
    } finally {
      await fake.close();
    }
  });
});
