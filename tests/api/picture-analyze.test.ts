// @db once
/**
 * intelligent_text/learn/pictureAnalyze: a list of the analysed images (image_extraction rows)
 * with their results, readable under the page's own key, which cannot create or change them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

const KEY = 'intelligent_text.text.learn.picture_analyze';
let s: TestServer;
let admin: ApiClient;
let viewer: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  viewer = await s.loginWithKeys(['intelligent_text', KEY]);
  other = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text.learn.todo_preview']);
});
afterAll(async () => {
  await s?.close();
});

describe('picture analysis page', () => {
  it('serves the list page for the route and its result view to the key holder only', async () => {
    const list = (await viewer.get('schema/list')).body.data.list as Array<{ id: string; routes?: string[] }>;
    expect(list.find((x) => x.routes?.includes('/intelligent_text/learn/pictureAnalyze'))?.id).toBe(
      'intelligent_text.learn.picture_analyze_list',
    );
    expect((await viewer.get('schema/detail', { id: 'intelligent_text.learn.picture_analyze_result' })).body.code).toBe(10000);
    expect((await other.get('schema/detail', { id: 'intelligent_text.learn.picture_analyze_list' })).body.code).toBe(40004);
  });

  it('lists analysed images with their results; read-only under the page key', async () => {
    const empty = (await viewer.get('image-extraction/list')).body;
    expect(empty.code).toBe(10000);
    const shopId = Number((await s.db.query<{ id: number }>(`INSERT INTO shop (name, type) VALUES ('Picture shop', 1) RETURNING id`)).rows[0].id);
    const made = await admin.post('image-extraction/create', {
      shop_id: shopId,
      title: 'Size chart',
      image_url: 'https://example.com/size.png',
      extracted_text: 'S 36 / M 38',
    });
    expect(made.body, JSON.stringify(made.body)).toMatchObject({ code: 10000 });
    const rows = (await viewer.get('image-extraction/list')).body.data.list;
    expect(rows.map((r: { title: string }) => r.title)).toContain('Size chart');
    const detail = (await viewer.get('image-extraction/detail', { id: made.body.data.id })).body;
    expect(detail.data.extracted_text).toBe('S 36 / M 38');
    expect((await viewer.post('image-extraction/create', { shop_id: shopId, title: 'x', image_url: 'https://example.com/x.png' })).body.code).toBe(40003);
    expect((await other.get('image-extraction/list')).body.code).toBe(40003);
  });
});
