// @db once
/**
 * The learning to-do preview (`GET learn-todo/list`): unhandled materials, policy and product
 * candidates waiting for review and documents that failed, newest first, by kind and shop, with
 * counts per kind; handled rows leave it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
let shopA: number;
let shopB: number;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  shopA = (await admin.ok('POST', 'shop/create', { name: 'Todo shop A', type: 1 })).id;
  shopB = (await admin.ok('POST', 'shop/create', { name: 'Todo shop B', type: 1 })).id;
  const q = (sql: string, p: unknown[]) => s.db.query(sql, p);
  await q(`INSERT INTO learn_material (shop_id, subject, question, status, created_at) VALUES ($1, 'Where is my parcel', 'q', 0, now() - interval '3 hours'), ($1, 'Handled', 'q', 1, now())`, [shopA]);
  await q(`INSERT INTO learn_policy (shop_id, question, answer, status, created_at) VALUES ($1, 'Can I return shoes?', 'Within 30 days', 0, now() - interval '2 hours'), ($1, 'Adopted one', 'a', 1, now())`, [shopA]);
  await q(`INSERT INTO learn_policy_product (shop_id, product_id, product_title, content, status, created_at) VALUES ($1, 'P-1', 'Thermos 500 ml', 'keeps warm 12 h', 0, now() - interval '1 hour')`, [shopB]);
  await q(`INSERT INTO learn_doc (shop_id, name, file_type, size, status, error, created_at) VALUES ($1, 'scan.pdf', 'pdf', 10, 2, 'no text layer (scanned PDF)', now()), ($1, 'ok.pdf', 'pdf', 10, 1, '', now())`, [shopB]);
});
afterAll(async () => {
  await s?.close();
});

describe('GET learn-todo/list', () => {
  it('lists what waits for a person, newest first, with the reason a document failed', async () => {
    const r = await admin.ok('GET', 'learn-todo/list');
    expect(r.list.map((x: { kind: string; title: string }) => `${x.kind}:${x.title}`)).toEqual([
      'doc_failed:scan.pdf',
      'product_candidate:Thermos 500 ml',
      'policy_candidate:Can I return shoes?',
      'material:Where is my parcel',
    ]);
    expect(r.total).toBe(4);
    expect(r.counts).toEqual({ material: 1, policy_candidate: 1, product_candidate: 1, doc_failed: 1 });
    expect(r.list[0]).toMatchObject({ detail: 'no text layer (scanned PDF)', shop_name: 'Todo shop B', key: expect.stringMatching(/^doc_failed-\d+$/) });
  });

  it('filters by kind and by shop, and pages', async () => {
    const a = await admin.ok('GET', 'learn-todo/list', { shop_id: shopA });
    expect(a.total).toBe(2);
    expect(a.counts).toEqual({ material: 1, policy_candidate: 1, product_candidate: 0, doc_failed: 0 });
    const docs = await admin.ok('GET', 'learn-todo/list', { kind: 'doc_failed' });
    expect(docs.list.map((x: { kind: string }) => x.kind)).toEqual(['doc_failed']);
    const p2 = await admin.ok('GET', 'learn-todo/list', { page: 2, page_size: 3 });
    expect(p2.list).toHaveLength(1);
    expect(p2.total).toBe(4);
    const bad = await admin.get('learn-todo/list', { kind: 'everything' });
    expect(bad.body.code).toBe(40001);
    expect(bad.body.msg).toMatch(/kind/);
  });

  it('a handled candidate leaves the list; the page key opens it, others are refused', async () => {
    await s.db.query(`UPDATE learn_policy SET status = 2 WHERE question = 'Can I return shoes?'`);
    const viewer = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text.learn.todo_preview']);
    const r = await viewer.ok('GET', 'learn-todo/list');
    expect(r.counts.policy_candidate).toBe(0);
    expect(r.total).toBe(3);
    const other = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text.learn.material']);
    expect((await other.get('learn-todo/list')).body.code).toBe(40003);
  });
});
