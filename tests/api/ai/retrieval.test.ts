// @db both — full-text search SQL and doc.learn jobs
/**
 * Knowledge retrieval (server/ai/knowledge, server/ai/retrieval), document learning as a job
 * (doc.learn) and the built-in responder (server/ai/answer.ts), over real HTTP on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuestion, BUILTIN_LABEL } from '../../../server/ai/answer.js';
import { docx, docxBody, pdf } from '../../../server/ai/parse/test-fixtures.js';
import { seedPolicies } from '../../../server/db/demo/business.js';
import { profileOf } from '../../../server/db/demo/knowledge.js';
import { Rng } from '../../../server/db/demo/random.js';
import { seedMerchants, type ShopInfo } from '../../../server/db/demo/shops.js';
import { parseSse } from '../../../src/screens/playground/stream.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { multipart, postForm } from '../business/helpers.js';
import { until } from '../jobs/until.js';

let s: TestServer;
let admin: ApiClient;
let enShop: number;
let zhShop: number;
const P: Record<string, number> = {};

const hitTest = (body: Record<string, unknown>) => admin.ok<any>('POST', 'knowledge/hit-test', body);
const firstTitle = async (shop: number, query: string) => (await hitTest({ shop_id: shop, query })).list[0]?.title;

async function addPolicy(shop: number, title: string, content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await admin.ok<{ id: number }>('POST', 'shop/policy/create', { shop_id: shop, title, content, source_type: 1, channel: 'chat', status: 1, ...extra });
  P[title] = r.id;
  return r.id;
}

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  const shop = async (name: string, type: number) => (await s.db.query<{ id: number }>(`INSERT INTO shop (name, type) VALUES ($1, $2) RETURNING id`, [name, type])).rows[0].id;
  enShop = await shop('Northwind Outfitters', 1);
  zhShop = await shop('青禾家居旗舰店', 2);
  await addPolicy(enShop, 'Return policy', 'Unworn items can be returned within 45 days of delivery. Refunds are issued to the original payment method within 5 business days after we receive the parcel.');
  await addPolicy(enShop, 'Shipping and delivery', 'We ship with UPS Ground, which takes 3 to 5 business days, and FedEx 2Day. Orders over $75 ship free within the continental US.');
  await addPolicy(enShop, 'Payment methods', 'We accept Visa, Mastercard, American Express, PayPal, Apple Pay and Shop Pay. Payment is taken when the order ships.');
  await addPolicy(enShop, 'Warranty', 'All backpacks carry a 3-year warranty against defects in materials and workmanship. Damage from misuse is not covered.');
  await addPolicy(enShop, 'Size guide', 'Our jackets run true to size. If you are between sizes, choose the larger one. Measure your chest under the arms.', { channel: 'email' });
  await addPolicy(zhShop, '退换货政策', '自签收之日起15天内支持无理由退货，商品需保持完好、配件齐全。退款在仓库收到退货后3个工作日内原路退回。');
  await addPolicy(zhShop, '配送说明', '默认使用顺丰速运发货，江浙沪地区次日送达，其他地区2至4天送达。订单满199元包邮。');
  await addPolicy(zhShop, '支付方式', '本店支持微信支付、支付宝、银联云闪付和花呗分期付款。');
  await addPolicy(zhShop, '保修条款', '家具主体结构保修五年，五金配件保修一年。人为损坏不在保修范围内。');
});

afterAll(async () => {
  await s?.close();
});

describe('knowledge/hit-test', () => {
  it.each([
    ['How many days do I have to return a jacket?', 'Return policy'],
    ['Which carriers do you ship with and how long does delivery take?', 'Shipping and delivery'],
    ['Can I pay with PayPal?', 'Payment methods'],
    ['Is my backpack covered by a warranty?', 'Warranty'],
    ['when do I get my refund', 'Return policy'],
  ])('English: %s → %s first', async (q, title) => {
    expect(await firstTitle(enShop, q)).toBe(title);
  });

  it.each([
    ['退货期限是多久？', '退换货政策'],
    ['你们发什么快递，几天能到？', '配送说明'],
    ['可以用支付宝付款吗', '支付方式'],
    ['沙发坏了保修几年', '保修条款'],
    ['退款多久到账', '退换货政策'],
  ])('Chinese: %s → %s first', async (q, title) => {
    expect(await firstTitle(zhShop, q)).toBe(title);
  });

  it('ranks with scores and names the filters used; filters by shop, channel and source type', async () => {
    const r = await hitTest({ shop_id: enShop, query: 'return refund', channel: 'chat', limit: 3 });
    expect(r.filters).toEqual({ shop_id: enShop, channel: 'chat', source_types: null, policy_types: null, limit: 3 });
    expect(r.terms).toEqual(['return', 'refund']);
    expect(r.list[0]).toMatchObject({ rank: 1, source_type: 'policy', source_id: P['Return policy'], title: 'Return policy', policy_type: 1, channel: 'chat' });
    expect(r.list[0].score).toBeGreaterThan(0);
    for (let i = 1; i < r.list.length; i++) expect(r.list[i].score).toBeLessThanOrEqual(r.list[i - 1].score);
    // another shop's knowledge is not searched (a word the lexicon does not translate: PayPal would find 支付方式)
    expect((await hitTest({ shop_id: zhShop, query: 'backpacks' })).list).toEqual([]);
    expect(await firstTitle(enShop, 'backpacks')).toBe('Warranty');
    // the size guide is email knowledge
    expect((await hitTest({ shop_id: enShop, query: 'jacket size chest', channel: 'chat' })).list.map((h: any) => h.title)).not.toContain('Size guide');
    expect(await firstTitle(enShop, 'jacket size chest')).toBe('Size guide');
    expect((await hitTest({ shop_id: enShop, query: 'PayPal', source_types: ['learn_doc'] })).list).toEqual([]);
    expect((await hitTest({ shop_id: enShop, query: 'PayPal', policy_types: [1] })).list[0].title).toBe('Payment methods');
    expect((await hitTest({ shop_id: enShop, query: 'PayPal', policy_types: [2] })).list).toEqual([]);
  });

  it("reads a misspelt word as the lexicon's or the shop's word one edit away; a real word the shop does not use stays as it is", async () => {
    const r = await hitTest({ shop_id: enShop, query: 'how do i get a refnd' });
    expect(r.terms).toContain('refund');
    expect(r.terms).not.toContain('refnd');
    expect(r.list[0].title).toBe('Return policy');
    // a word of the shop's own knowledge, in no lexicon group (backpack), read from a typo
    const own = await hitTest({ shop_id: enShop, query: 'backpak' });
    expect(own.terms).toEqual(['backpack']);
    expect(own.list[0].title).toBe('Warranty');
    // a real English word (CC-CEDICT has it) the shop never says is not "corrected" into one it does
    expect((await hitTest({ shop_id: enShop, query: 'Can I pay with cryptocurrency?' })).terms).toContain('cryptocurr');
  });

  it('follows policy edits, switching off and deletes at once', async () => {
    const id = await addPolicy(enShop, 'Gift cards', 'Gift cards never expire and can be used online.');
    expect(await firstTitle(enShop, 'do gift cards expire')).toBe('Gift cards');
    await admin.ok('POST', 'shop/policy/update', { id, content: 'Gift vouchers are valid for two years and work in our Seattle store.' });
    expect(await firstTitle(enShop, 'Seattle store vouchers')).toBe('Gift cards');
    await admin.ok('POST', 'shop/policy/update', { id, status: 0 });
    expect((await hitTest({ shop_id: enShop, query: 'Seattle vouchers' })).list).toEqual([]);
    await admin.ok('POST', 'shop/policy/update', { id, status: 1 });
    expect(await firstTitle(enShop, 'Seattle vouchers')).toBe('Gift cards');
    await admin.ok('POST', 'shop/policy/delete', { id });
    expect((await hitTest({ shop_id: enShop, query: 'Seattle vouchers' })).list).toEqual([]);
    expect((await s.db.query(`SELECT 1 FROM knowledge_chunk WHERE source_type = 'policy' AND source_id = $1`, [id])).rows).toEqual([]);
  });

  it('cuts a long policy into chunks and finds the chunk that answers', async () => {
    const sections = Array.from({ length: 40 }, (_, i) => `Section ${i + 1}. Orders placed on a weekday are packed by our team in warehouse ${i + 1} before they leave.`);
    sections[33] = 'Section 34. Customs duties for parcels to Norway are prepaid at checkout, so nothing is due on delivery.';
    await addPolicy(enShop, 'International orders handbook', sections.join('\n\n'));
    const r = await hitTest({ shop_id: enShop, query: 'Do I pay customs duties for Norway?' });
    const chunks = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_chunk WHERE source_type = 'policy' AND source_id = $1`, [P['International orders handbook']]);
    expect(chunks.rows[0].n).toBeGreaterThan(1);
    expect(r.list[0].title).toBe('International orders handbook');
    expect(r.list[0].text).toContain('Norway');
  });

  it('GET knowledge/hit-test (the schema page) takes one source type and policy type; no query is an empty list', async () => {
    expect(await admin.ok('GET', 'knowledge/hit-test', {})).toMatchObject({ total: 0, list: [] });
    const r = await admin.ok<any>('GET', 'knowledge/hit-test', { query: 'PayPal', shop_id: enShop, source_type: 'policy', policy_type: 1 });
    expect(r.list[0]).toMatchObject({ rank: 1, title: 'Payment methods', source_type: 'policy' });
    expect(r.filters).toMatchObject({ shop_id: enShop, source_types: ['policy'], policy_types: [1] });
    const page = await admin.ok<any>('GET', 'schema/detail', { id: 'intelligent_text.knowledge_hit_test' });
    expect(JSON.stringify(page)).toContain('GET knowledge/hit-test');
  });

  it('refuses bad input with 40001 naming the field', async () => {
    for (const [body, field] of [
      [{ query: '' }, 'query'],
      [{ query: 'x', shop_id: 'a' }, 'shop_id'],
      [{ query: 'x', channel: 'fax' }, 'channel'],
      [{ query: 'x', source_types: ['nope'] }, 'source_types'],
      [{ query: 'x', shop_id: 999999 }, 'shop_id'],
    ] as const) {
      const r = await admin.post('knowledge/hit-test', body);
      expect(r.body.code, JSON.stringify(body)).toBe(40001);
      expect(JSON.stringify(r.body.data)).toContain(field);
    }
  });
});

describe('documents are learned by a job', () => {
  async function upload(name: string, data: Buffer, shop: number) {
    const r = await postForm(admin, 'learn-doc/create', multipart({ name, data }, { shop_id: String(shop) }));
    expect(r.body.code, r.body.msg).toBe(10000);
    expect(r.body.data.status).toBe(0);
    return r.body.data.id as number;
  }
  const learned = (id: number) =>
    until(
      async () => (await s.db.query<{ status: number; error: string }>(`SELECT status, error FROM learn_doc WHERE id = $1`, [id])).rows[0],
      (d) => d.status !== 0,
      30_000,
    );

  it('a DOCX and a multi-page PDF are learned with no further call, and a question about them finds them', async () => {
    const docxFile = await docx(
      docxBody([
        'Northwind care guide',
        'Waxed canvas jackets should be re-waxed every twelve months with our Otter Wax bar.',
        'Never machine wash waxed canvas; brush off dry mud and sponge with cold water.',
      ]),
    );
    const pdfFile = pdf(
      [
        ['Northwind loyalty programme', 'Members collect 5 points for every dollar spent.'],
        ['Page two', 'Points can be redeemed for Trailhead vouchers after 500 points.'],
      ],
      'Loyalty',
    );
    const d1 = await upload('care-guide.docx', docxFile, enShop);
    const d2 = await upload('loyalty.pdf', pdfFile, enShop);
    const jobs = await s.db.query<{ ref_id: string; kind: string }>(`SELECT ref_id, kind FROM work_job WHERE ref_type = 'learn_doc' AND ref_id = ANY($1::bigint[])`, [[d1, d2]]);
    expect(jobs.rows.map((j) => j.kind)).toEqual(['doc.learn', 'doc.learn']);
    expect((await learned(d1)).status).toBe(1);
    expect((await learned(d2)).status).toBe(1);
    const a = await hitTest({ shop_id: enShop, query: 'How often should I re-wax my canvas jacket?' });
    expect(a.list[0]).toMatchObject({ source_type: 'learn_doc', source_id: d1, title: 'care-guide.docx' });
    const b = await hitTest({ shop_id: enShop, query: 'how many points for Trailhead vouchers' });
    expect(b.list[0]).toMatchObject({ source_type: 'learn_doc', source_id: d2 });
    expect(b.list[0].text).toContain('500 points');
    // re-learn: the chunks leave the index and come back when the job has run again
    await admin.ok('POST', 'learn-doc/learn', { id: d1 });
    expect((await learned(d1)).status).toBe(1);
    expect((await hitTest({ shop_id: enShop, query: 'Otter Wax' })).list[0].source_id).toBe(d1);
    // deleting the document removes its knowledge
    await admin.ok('POST', 'learn-doc/delete', { id: d2 });
    expect((await hitTest({ shop_id: enShop, query: 'Trailhead vouchers' })).list).toEqual([]);
  });

  it('a document that cannot be read fails with the reason; the job says why', async () => {
    const id = await upload('scan.pdf', pdf([[]]), enShop);
    const d = await learned(id);
    expect(d.status).toBe(2);
    expect(d.error).toMatch(/no text/);
    const job = await until(
      async () => (await s.db.query<{ state: string; last_error: string }>(`SELECT state, last_error FROM work_job WHERE ref_type = 'learn_doc' AND ref_id = $1`, [id])).rows[0],
      (j) => j.state === 'failed',
    );
    expect(job.last_error).toMatch(/no text/);
  });

  it('a document whose learning was cut off (status 0, job redelivered) is learned by the job', async () => {
    // what a restart finds: the row at status 0 with its job queued again
    const id = (await s.db.query<{ id: number }>(`INSERT INTO learn_doc (shop_id, name, file_type, size, file) VALUES ($1, 'notes.txt', 'txt', 40, $2) RETURNING id`, [enShop, Buffer.from('The Portland outlet opens at 9am on Sundays.')])).rows[0].id;
    await s.db.tx((q) => s.app.jobs.enqueue(q, 'doc.learn', { docId: id }, { ref: { type: 'learn_doc', id } }));
    expect((await learned(id)).status).toBe(1);
    expect(await firstTitle(enShop, 'When does the Portland outlet open on Sunday?')).toBe('notes.txt');
  });
});

describe('built-in responder', () => {
  it('answers from the cited policy, labelled, in the question language', async () => {
    const en = await answerQuestion(s.db, { question: 'How many days do I have to return something?', shopId: enShop, channel: 'chat' });
    expect(en).toMatchObject({ responder: 'builtin', model: 'builtin', tokens: null });
    expect(en.citations[0]).toMatchObject({ source_type: 'policy', source_id: P['Return policy'], title: 'Return policy' });
    expect(en.text).toContain('45 days');
    expect(en.text).toContain(BUILTIN_LABEL);
    const zh = await answerQuestion(s.db, { question: '你们支持支付宝吗？', shopId: zhShop });
    expect(zh.citations[0].source_id).toBe(P['支付方式']);
    expect(zh.text).toContain('支付宝');
    expect(zh.text).toContain('根据本店');
  });

  it('says honestly when nothing in the shop knowledge matches', async () => {
    const r = await answerQuestion(s.db, { question: 'What is the airspeed of an unladen swallow?', shopId: enShop });
    expect(r.citations).toEqual([]);
    expect(r.text).toMatch(/couldn't find anything/);
    expect(r.text).toContain(BUILTIN_LABEL);
    const z = await answerQuestion(s.db, { question: '你们老板叫什么名字？', shopId: zhShop });
    expect(z.citations).toEqual([]);
    expect(z.text).toContain('没有找到');
  });
});

describe('the demo knowledge in the playground', () => {
  let demo: ShopInfo[];
  beforeAll(async () => {
    // the demo seed's shops and policies (the generator of server/db/demo/knowledge.ts)
    demo = await s.db.tx(async (q) => {
      const rng = new Rng(20261122);
      const { shops } = await seedMerchants(q, rng, 30, [1, 2]);
      await seedPolicies(q, rng, shops);
      return shops;
    });
  });

  async function playground(shopId: number, message: string) {
    const headers: Record<string, string> = { 'content-type': 'application/json', cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (admin.token) headers['admin-token'] = admin.token;
    const res = await fetch(admin.url('prompt/playground-stream'), { method: 'POST', headers, body: JSON.stringify({ shop_id: shopId, message }) });
    const events = parseSse(await res.text()).events;
    expect(events.at(-1)?.event).toBe('done');
    return events.at(-1)!.data as { text: string; responder: string; citations: Array<{ source_type: string; source_id: number; title: string }> };
  }

  it.each([
    ['en', 'How many days do I have to return an item?', 'Return policy', (d: number) => `within ${d} days`],
    ['zh', '几天内可以无理由退货？', '退换货政策', (d: number) => `${d}天内`],
  ] as const)('%s: the built-in responder answers a demo shop return question from that shop\'s return policy, cited', async (lang, question, title, says) => {
    const shop = demo.slice(0, Math.ceil(demo.length * 0.6)).find((x) => profileOf(x).lang === lang)!;
    expect(shop, `a ${lang} demo shop with knowledge`).toBeTruthy();
    const policy = (await s.db.query<{ id: number }>(`SELECT id FROM policy WHERE shop_id = $1 AND title = $2 AND status = 1`, [shop.id, title])).rows[0];
    const done = await playground(shop.id, question);
    expect(done.responder).toBe('builtin');
    expect(done.citations[0]).toMatchObject({ source_type: 'policy', source_id: policy.id, title });
    expect(done.text).toContain(says(profileOf(shop).returnDays));
    expect(done.text).toContain(BUILTIN_LABEL);
  });
});
