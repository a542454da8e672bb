// @db once
/**
 * intelligent_voice/customer/sessionCategory: the voice menu entry's page reuses the text
 * module's session-category resource under the voice permission key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

const KEY = 'intelligent_voice.voice.customer.session_category';
let s: TestServer;
let voice: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  s = await startServer();
  voice = await s.loginWithKeys(['intelligent_voice', KEY]);
  other = await s.loginWithKeys(['intelligent_voice', 'intelligent_voice.voice.customer.plan']);
});
afterAll(async () => {
  await s?.close();
});

describe('voice session categories', () => {
  it('serves a page for the route to holders of the voice key only', async () => {
    const list = (await voice.get('schema/list')).body.data.list as Array<{ id: string; routes?: string[] }>;
    const page = list.find((x) => x.routes?.includes('/intelligent_voice/customer/sessionCategory'));
    expect(page?.id).toBe('intelligent_voice.session.category_tabs');
    for (const id of [
      'intelligent_voice.session.category_group_list',
      'intelligent_voice.session.category_item_list',
      'intelligent_voice.session.category_group_form',
      'intelligent_voice.session.category_item_form',
    ])
      expect((await voice.get('schema/detail', { id })).body.code, id).toBe(10000);
    expect((await other.get('schema/detail', { id: 'intelligent_voice.session.category_tabs' })).body.code).toBe(40004);
  });

  it('lets the voice key create and list categories; others are refused', async () => {
    const made = await voice.post('session-category/group/create', { name: 'Voice billing' });
    expect(made.body.code).toBe(10000);
    const rows = (await voice.get('session-category/group/list', { keyword: 'billing' })).body;
    expect(rows.code).toBe(10000);
    expect(rows.data.list.map((r: { name: string }) => r.name)).toContain('Voice billing');
    expect((await other.get('session-category/group/list')).body.code).toBe(40003);
  });
});
