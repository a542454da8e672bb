// @db once — learning closes by itself: routes, SQL and the knowledge index, engine-independent
/**
 * Issue 24, "learning closes by itself" (server/resources/learning/learn-review.ts): adopting an
 * auto-learned product candidate writes its text into the product's knowledge (product_desc,
 * indexed by its trigger) and hit testing finds it; adopting a policy candidate started from a
 * learning material (ticket learning) marks the material learned, rejecting it gives the ticket
 * back as not learned with the reason — without anyone moving a status by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../jobs/until.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';

let s: TestServer;
let admin: ApiClient;
let shop: number;

interface Hit {
  source_type: string;
  source_id: number;
  title: string;
}
const hits = async (query: string): Promise<Hit[]> => (await admin.ok('POST', 'knowledge/hit-test', { query, shop_id: shop, ranking: 'bm25' })).list;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  shop = (await admin.ok('POST', 'shop/create', { name: 'Learning closes shop', type: 1 })).id;
});

afterAll(() => s?.close());

const productCandidate = async (productId: string, title: string, content: string): Promise<number> =>
  (
    await s.db.query<{ id: number }>(
      `INSERT INTO learn_policy_product (shop_id, product_id, product_title, content, status) VALUES ($1, $2, $3, $4, 0) RETURNING id`,
      [shop, productId, title, content],
    )
  ).rows[0].id;

describe('an adopted product candidate', () => {
  it('becomes the product’s knowledge, found by hit testing; adopted is final', async () => {
    const id = await productCandidate('SKU-CLOSE-1', 'Thermal flask', 'The thermal flask keeps drinks hot for twelve hours and is dishwasher safe.');
    expect((await hits('thermal flask dishwasher')).filter((h) => h.source_type === 'product_desc')).toEqual([]);
    const r = await admin.ok('POST', 'shop/learn-policy-product/update', { id, status: 1 });
    expect(r).toMatchObject({ status: 1, product_desc_id: expect.any(Number), reviewed_by: expect.any(Number) });
    const found = await until(
      () => hits('thermal flask dishwasher'),
      (list) => list.some((h) => h.source_type === 'product_desc' && h.source_id === r.product_desc_id),
      30_000,
    );
    expect(found[0]).toMatchObject({ source_type: 'product_desc', source_id: r.product_desc_id, title: 'Thermal flask' });
    const again = await admin.post('shop/learn-policy-product/update', { id, content: 'Changed after adoption.' });
    expect(again.body.code).not.toBe(10000);
    expect(again.body.msg).toContain('product description');
  });

  it('an edited text replaces the product’s existing description knowledge, in the same row', async () => {
    const desc = (
      await s.db.query<{ id: number }>(
        `INSERT INTO product_desc (shop_id, product_id, title, description, identified_desc, status) VALUES ($1, 'SKU-CLOSE-2', 'Trail shoe', 'A shoe.', 'A light shoe.', 2) RETURNING id`,
        [shop],
      )
    ).rows[0].id;
    const id = await productCandidate('SKU-CLOSE-2', 'Trail shoe', 'A light shoe.');
    const r = await admin.ok('POST', 'shop/learn-policy-product/update', {
      id,
      status: 1,
      content: 'The trail shoe has a waterproof membrane and a grippy outsole for wet rock.',
    });
    expect(r.product_desc_id).toBe(desc);
    const rows = await s.db.query<{ identified_desc: string }>(`SELECT identified_desc FROM product_desc WHERE shop_id = $1 AND product_id = 'SKU-CLOSE-2'`, [shop]);
    expect(rows.rows).toEqual([{ identified_desc: 'The trail shoe has a waterproof membrane and a grippy outsole for wet rock.' }]);
    await until(() => hits('waterproof membrane outsole'), (list) => list.some((h) => h.source_id === desc && h.source_type === 'product_desc'), 30_000);
  });

  it('a rejected one writes nothing to the knowledge', async () => {
    const id = await productCandidate('SKU-CLOSE-3', 'Rain poncho', 'The rain poncho folds into its own pocket.');
    const r = await admin.ok('POST', 'shop/learn-policy-product/update', { id, status: 2 });
    expect(r).toMatchObject({ status: 2, product_desc_id: null });
    expect((await s.db.query(`SELECT 1 FROM product_desc WHERE product_id = 'SKU-CLOSE-3'`)).rows).toEqual([]);
  });
});

describe('ticket learning', () => {
  const material = async (subject: string, answer: string): Promise<number> =>
    (
      await s.db.query<{ id: number }>(
        `INSERT INTO learn_material (shop_id, channel, source_type, subject, question, answer, status) VALUES ($1, 'chat', 3, $2, $3, $4, 0) RETURNING id`,
        [shop, subject, subject, answer],
      )
    ).rows[0].id;
  const ticket = async (id: number) =>
    (await s.db.query<{ ticket_learn: number; ticket_learn_note: string }>(`SELECT ticket_learn, ticket_learn_note FROM learn_material WHERE id = $1`, [id])).rows[0];
  const candidateOf = async (materialId: number) =>
    (await s.db.query<{ id: number }>(`SELECT id FROM learn_policy WHERE material_id = $1`, [materialId])).rows[0]?.id;

  it('adopting the candidate marks the material learned and the policy answers', async () => {
    const m = await material('Can I change the engraving on my order?', 'Engraving can be changed within 2 hours of ordering by replying to the confirmation mail.');
    await admin.ok('POST', 'learn-material/ticket-learn', { id: m });
    expect(await ticket(m)).toMatchObject({ ticket_learn: 1 });
    const c = await candidateOf(m);
    expect(c).toBeGreaterThan(0);
    const r = await admin.ok('POST', 'shop/learn-policy/update', { id: c, status: 1 });
    expect(await ticket(m)).toEqual({ ticket_learn: 2, ticket_learn_note: `adopted as policy #${r.policy_id} / 已采纳为知识 #${r.policy_id}` });
    await until(() => hits('engraving confirmation mail'), (list) => list.some((h) => h.source_type === 'policy' && h.source_id === r.policy_id), 30_000);
  });

  it('rejecting it gives the ticket back as not learned, with the reason', async () => {
    const m = await material('Do you sell gift wrap?', 'Yes.');
    await admin.ok('POST', 'learn-material/ticket-learn', { id: m });
    const c = await candidateOf(m);
    await admin.ok('POST', 'shop/learn-policy/update', { id: c, status: 2, reject_reason: 'too short to teach' });
    expect(await ticket(m)).toEqual({ ticket_learn: 0, ticket_learn_note: 'candidate rejected: too short to teach / 候选被拒绝：too short to teach' });
    // and it can be learned again
    await admin.ok('POST', 'learn-material/ticket-learn', { id: m });
    expect(await ticket(m)).toMatchObject({ ticket_learn: 1 });
  });

  it('a status moved by hand meanwhile is left alone', async () => {
    const m = await material('Is there a student discount?', 'Students get 10 % off with a valid student mail address.');
    await admin.ok('POST', 'learn-material/ticket-learn', { id: m });
    await admin.ok('POST', 'learn-material/update-ticket-learn', { id: m, ticket_learn: 2, ticket_learn_note: 'done by hand' });
    await admin.ok('POST', 'shop/learn-policy/update', { id: await candidateOf(m), status: 2, reject_reason: 'duplicate' });
    expect(await ticket(m)).toEqual({ ticket_learn: 2, ticket_learn_note: 'done by hand' });
  });
});
