// @db both — retrieval SQL and the learn_doc trigger over the seeded demo knowledge
/**
 * Retrieval over the demo knowledge (issue 21): every demo document is indexed (the learn_doc
 * trigger's INSERT case, migration 0028) and found by its own words in hit testing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
