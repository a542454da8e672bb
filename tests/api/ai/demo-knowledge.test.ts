// @db both — retrieval SQL and the learn_doc trigger over the seeded demo knowledge
/**
 * Retrieval over the demo knowledge (issue 21): every demo document is indexed (the learn_doc
 * trigger's INSERT case, migration 0028) and found by its own words in hit testing; questions in
 * one language find the other language's policies (the lexicon, server/ai/knowledge/lexicon.ts);
 * the built-in responder declines what nothing in the shop answers and answers what something does.
 * The labelled questions are written here by hand against the demo policies' topics (not their
 * wording); the figures are printed and stated in docs/ai.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuestion } from '../../../server/ai/answer.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';

let s: TestServer;
let admin: ApiClient;

const hitTest = (body: Record<string, unknown>) => admin.ok<any>('POST', 'knowledge/hit-test', body);

beforeAll(async () => {
  s = await startServer({ seedDemo: true });
  admin = await s.login();
}, 180_000);

afterAll(async () => {
  await s?.close();
});

describe('the demo documents are indexed', () => {
  it('every learned demo document is found in hit testing by a sentence of its own text, in its shop', async () => {
    const docs = (await s.db.query<{ id: number; shop_id: number; name: string; content: string }>(
      `SELECT id, shop_id, name, content FROM learn_doc WHERE status = 1 ORDER BY id`,
    )).rows;
    expect(docs.length).toBeGreaterThanOrEqual(5);
    for (const d of docs) {
      // a line from the middle page of the document (not its title), as a customer might paste it
      const page = d.content.split('\f')[1] ?? d.content;
      const line = page.split('\n').map((l) => l.trim()).filter((l) => l.length > 20 && !l.startsWith('#')).at(-1)!;
      const r = await hitTest({ shop_id: d.shop_id, query: line, source_types: ['learn_doc'] });
      expect(r.list.length, `${d.name}: ${line}`).toBeGreaterThan(0);
      expect(r.list[0], `${d.name}: ${line}`).toMatchObject({ source_type: 'learn_doc', source_id: d.id, title: d.name });
      expect(r.list[0].text).toContain(line);
      // and among all of the shop's knowledge, by its title
      const byTitle = await hitTest({ shop_id: d.shop_id, query: d.name.replace(/\.\w+$/, '').replace(/-/g, ' ') });
      expect(byTitle.list.map((h: any) => `${h.source_type}:${h.source_id}`), d.name).toContain(`learn_doc:${d.id}`);
    }
    const chunks = await s.db.query<{ n: number }>(`SELECT count(DISTINCT source_id)::int AS n FROM knowledge_chunk WHERE source_type = 'learn_doc' AND source_id = ANY($1::int[])`, [docs.map((d) => d.id)]);
    expect(chunks.rows[0].n).toBe(docs.length);
  }, 120_000);

  it('a document inserted already learned is indexed without a learning job; a failed one is not', async () => {
    const shop = (await s.db.query<{ id: number }>(`SELECT id FROM shop ORDER BY id LIMIT 1`)).rows[0].id;
    const text = 'Our pick-your-own orchard opens every Saturday; baskets are lent free of charge.';
    const ins = await s.db.query<{ id: number }>(
      `INSERT INTO learn_doc (shop_id, name, file_type, size, status, content, error, file) VALUES ($1, 'orchard.txt', 'txt', $2, 1, $3, '', $4), ($1, 'orchard-failed.txt', 'txt', 1, 2, $3, 'broken', $4) RETURNING id`,
      [shop, text.length, text, Buffer.from(text)],
    );
    const r = await hitTest({ shop_id: shop, query: 'orchard baskets Saturday' });
    expect(r.list.filter((h: any) => h.source_type === 'learn_doc').map((h: any) => h.source_id)).toEqual([ins.rows[0].id]);
  });
});

/** [question, the title of the policy that answers it] */
type Labelled = Array<[string, string]>;

// Chinese questions for an English shop, English questions for a Chinese (Douyin) shop
const ZH_TO_EN: Labelled = [
  ['退货期限是多久？', 'Return policy'],
  ['退款多久能到账？', 'Return policy'],
  ['你们用哪家快递发货？', 'Shipping, carriers and delivery times'],
  ['保修期是多久？', 'Warranty'],
  ['可以用信用卡付款吗？', 'Payment methods'],
  ['能分期付款吗？', 'Payment methods'],
  ['下单后可以取消订单吗？', 'Order changes and cancellation'],
  ['怎么查物流？', 'Order tracking'],
  ['收到的商品破损了怎么办？', 'Damaged or wrong items'],
  ['优惠券可以叠加使用吗？', 'Discount codes and promotions'],
  ['尺码不合适可以换货吗？', 'Exchanges'],
  ['衣服尺码偏大还是偏小？', 'Size guide'],
  ['客服的工作时间是几点？', 'Customer service hours'],
  ['可以寄到国外吗？要交关税吗？', 'International shipping'],
];
const EN_TO_ZH: Labelled = [
  ['How long do I have to return an item?', '退换货政策'],
  ['When will I get my refund?', '退换货政策'],
  ['Which courier do you use?', '发货与配送'],
  ['How long is the warranty?', '质保说明'],
  ['Can I pay in instalments?', '支付方式'],
  ['Can I cancel my order?', '修改与取消订单'],
  ['How do I track my parcel?', '物流查询'],
  ['My item arrived broken, what should I do?', '商品损坏与错发处理'],
  ['Can I use two coupons on one order?', '优惠券与活动'],
  ['Can I exchange it for another size?', '换货说明'],
  ['What size should I take with a 98 cm chest?', '尺码表'],
  ['Can I get an invoice?', '发票说明'],
  ['What are your customer service hours?', '客服时间'],
];
// the same language, in other words than the policy's
const EN_SAME: Labelled = [
  ['Which couriers deliver my order?', 'Shipping, carriers and delivery times'],
  ['Is there a guarantee on this?', 'Warranty'],
  ['Can I send back something I bought?', 'Return policy'],
  ['Do you take PayPal?', 'Payment methods'],
  ['My parcel came smashed', 'Damaged or wrong items'],
  ['Is there free shipping?', 'Shipping, carriers and delivery times'],
];
const ZH_SAME: Labelled = [
  ['质保多久？', '质保说明'],
  ['能用支付宝吗？', '支付方式'],
  ['东西坏了能修吗？', '质保说明'],
  ['满多少包邮？', '发货与配送'],
  ['可以改收货地址吗？', '修改与取消订单'],
  ['胸围98穿什么码？', '尺码表'],
];
// nothing in a demo shop's knowledge answers these (asked in shops without documents)
const UNANSWERABLE_EN = [
  'Do you have a pick-up store near me?',
  'Is there a rewards programme?',
  'Can I book a fitting appointment?',
  'Do you offer a student discount?',
  'Can I pay with Bitcoin?',
  'Are your products vegan?',
  'Do you have a physical shop in London?',
  'Do you offer gift wrapping?',
];
const UNANSWERABLE_ZH = [
  '有没有线下门店可以自提？',
  '你们有积分奖励计划吗？',
  '可以预约上门安装吗？',
  '有学生优惠吗？',
  '支持比特币付款吗？',
  '你们的产品是纯素的吗？',
  '可以礼品包装吗？',
  '北京有实体店吗？',
];

// Held out: written after the lexicon was tuned on the sets above and not used to tune it
// (the figures of both are in docs/ai.md; a held-out miss is not fixed by adding its words).
const HELD_OUT_ZH_TO_EN: Labelled = [
  ['如果不喜欢可以退吗？', 'Return policy'],
  ['运费怎么算？', 'Shipping, carriers and delivery times'],
  ['东西坏了，有质保吗？', 'Warranty'],
  ['可以用苹果支付吗？', 'Payment methods'],
  ['发货后多久能收到？', 'Shipping, carriers and delivery times'],
  ['我想改一下地址', 'Order changes and cancellation'],
  ['快递单号在哪里看？', 'Order tracking'],
  ['发错货了怎么办？', 'Damaged or wrong items'],
  ['新用户有折扣吗？', 'Discount codes and promotions'],
];
const HELD_OUT_EN_TO_ZH: Labelled = [
  ['Can I get my money back?', '退换货政策'],
  ['Do you deliver to Tibet?', '发货与配送'],
  ['Is Alipay accepted?', '支付方式'],
  ['How long will delivery take?', '发货与配送'],
  ['I received the wrong item', '商品损坏与错发处理'],
  ['Can I swap the colour?', '换货说明'],
  ['Do you issue VAT receipts?', '发票说明'],
];
const HELD_OUT_UNANSWERABLE = [
  'Can I visit your warehouse?',
  'Do you have a mobile app?',
  'Is there a referral bonus for inviting friends?',
  'Do you price match other stores?',
  '你们招聘客服吗？',
  '可以刻字吗？',
  '有没有以旧换新活动？',
  '可以开直播吗？',
];

/** A demo shop of the language with the full set of policies and no documents. */
async function demoShop(zh: boolean): Promise<number> {
  const r = await s.db.query<{ id: number }>(
    `SELECT p.shop_id AS id FROM policy p JOIN shop sh ON sh.id = p.shop_id
      WHERE p.status = 1 AND p.title = $1 AND (sh.type = 2) = $2
        AND NOT EXISTS (SELECT 1 FROM learn_doc d WHERE d.shop_id = p.shop_id)
      ORDER BY p.shop_id LIMIT 1`,
    [zh ? '退换货政策' : 'Return policy', zh],
  );
  return r.rows[0].id;
}

async function hitAt5(shop: number, set: Labelled): Promise<{ hits: number; misses: string[] }> {
  const misses: string[] = [];
  for (const [q, title] of set) {
    const r = await hitTest({ shop_id: shop, query: q, limit: 5 });
    if (!r.list.some((h: any) => h.title === title)) misses.push(`${q} → ${title} (got ${r.list.map((h: any) => h.title).join(' | ') || 'nothing'})`);
  }
  return { hits: set.length - misses.length, misses };
}

describe('cross-language retrieval and knowing when not to answer', () => {
  let en: number;
  let zh: number;
  beforeAll(async () => {
    en = await demoShop(false);
    zh = await demoShop(true);
  });

  it('hit testing shows the words the lexicon added and the share of the question each chunk covers', async () => {
    const r = await hitTest({ shop_id: en, query: '退货期限是多久？' });
    expect(r.expanded_terms).toContain('return');
    expect(r.list[0]).toMatchObject({ title: 'Return policy', coverage: 1, matched_terms: '2 / 2' });
  });

  it('a Chinese question finds the English policy that answers it, and the reverse (hit@5)', async () => {
    const a = await hitAt5(en, ZH_TO_EN);
    const b = await hitAt5(zh, EN_TO_ZH);
    const n = ZH_TO_EN.length + EN_TO_ZH.length;
    console.log(`cross-language hit@5: ${a.hits + b.hits}/${n} (zh→en ${a.hits}/${ZH_TO_EN.length}, en→zh ${b.hits}/${EN_TO_ZH.length})\n  misses: ${[...a.misses, ...b.misses].join('\n  ') || 'none'}`);
    // stated in docs/ai.md: at least 24 of the 27
    expect(a.hits + b.hits).toBeGreaterThanOrEqual(24);
    const same = [await hitAt5(en, EN_SAME), await hitAt5(zh, ZH_SAME)];
    console.log(`same-language paraphrases hit@5: ${same[0].hits + same[1].hits}/${EN_SAME.length + ZH_SAME.length}\n  misses: ${[...same[0].misses, ...same[1].misses].join('\n  ') || 'none'}`);
    expect(same[0].hits + same[1].hits).toBeGreaterThanOrEqual(EN_SAME.length + ZH_SAME.length - 1);
    const held = [await hitAt5(en, HELD_OUT_ZH_TO_EN), await hitAt5(zh, HELD_OUT_EN_TO_ZH)];
    console.log(`held-out cross-language hit@5: ${held[0].hits + held[1].hits}/${HELD_OUT_ZH_TO_EN.length + HELD_OUT_EN_TO_ZH.length}\n  misses: ${[...held[0].misses, ...held[1].misses].join('\n  ') || 'none'}`);
  }, 120_000);

  it('the built-in responder declines what nothing answers and answers the rest (both error rates bounded)', async () => {
    const ask = (shop: number, question: string) => answerQuestion(s.db, { question, shopId: shop });
    const answerable: Array<[number, string, string]> = [
      ...ZH_TO_EN.map(([q, t]) => [en, q, t] as [number, string, string]),
      ...EN_TO_ZH.map(([q, t]) => [zh, q, t] as [number, string, string]),
      ...EN_SAME.map(([q, t]) => [en, q, t] as [number, string, string]),
      ...ZH_SAME.map(([q, t]) => [zh, q, t] as [number, string, string]),
    ];
    async function measure(name: string, answerable: Array<[number, string, string]>, unanswerable: Array<[number, string]>) {
      const falseDeclines: string[] = [];
      const wrongSource: string[] = [];
      for (const [shop, q, title] of answerable) {
        const a = await ask(shop, q);
        if (!a.citations.length) falseDeclines.push(q);
        else if (a.citations[0].title !== title) wrongSource.push(`${q} → ${a.citations[0].title}`);
      }
      const guessed: string[] = [];
      for (const [shop, q] of unanswerable) {
        const a = await ask(shop, q);
        if (a.citations.length) guessed.push(`${q} (shop ${shop === en ? 'en' : 'zh'}) → ${a.citations[0].title}`);
      }
      console.log(
        `${name}: false declines ${falseDeclines.length}/${answerable.length}; answered from another source ${wrongSource.length}/${answerable.length}; ` +
          `unanswerable answered ${guessed.length}/${unanswerable.length}\n  false declines: ${falseDeclines.join(' | ') || 'none'}\n  other source: ${wrongSource.join(' | ') || 'none'}\n  guessed: ${guessed.join(' | ') || 'none'}`,
      );
      return { falseDeclines, guessed };
    }
    const both = (qs: string[]) => qs.flatMap((q) => [[en, q], [zh, q]] as Array<[number, string]>);
    const { falseDeclines, guessed } = await measure('development set', answerable, both([...UNANSWERABLE_EN, ...UNANSWERABLE_ZH]));
    const unanswerable = both([...UNANSWERABLE_EN, ...UNANSWERABLE_ZH]);
    await measure(
      'held-out set',
      [...HELD_OUT_ZH_TO_EN.map(([q, t]) => [en, q, t] as [number, string, string]), ...HELD_OUT_EN_TO_ZH.map(([q, t]) => [zh, q, t] as [number, string, string])],
      both(HELD_OUT_UNANSWERABLE),
    );
    // stated in docs/ai.md: at most 10 % of either kind
    expect(falseDeclines.length / answerable.length).toBeLessThanOrEqual(0.1);
    expect(guessed.length / unanswerable.length).toBeLessThanOrEqual(0.1);
  }, 120_000);
});
