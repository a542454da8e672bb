// @db once
/** schema/list and schema/detail through the real app: session, access, envelope, ETag / 304. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_FILE, makeFixture, type Fixture } from '../../scripts/lib/test-fixture.js';
import { loadSchemas } from '../../server/schemas/index.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let fx: Fixture;
let admin: ApiClient;
let roleReader: ApiClient;
let textOnly: ApiClient;

beforeAll(async () => {
  s = await startServer();
  fx = makeFixture();
  fx.edit(LIST_FILE, (d) => (d.permission = 'admin_center.admin.permission.role'));
  await loadSchemas(path.join(fx.root, 'schemas'), { watch: false }); // after the app: this store wins
  admin = await s.login();
  roleReader = await s.loginWithKeys(['admin_center', 'admin_center.admin.permission.role']);
  textOnly = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text_home']);
});
afterAll(async () => {
  await s?.close();
  fx?.cleanup();
});

const ids = (r: { body: { data: { list: Array<{ id: string }> } } }) => r.body.data.list.map((x) => x.id);

describe('GET schema/list', () => {
  it('needs a login', async () => {
    expect((await s.anon().get('schema/list')).body.code).toBe(20001);
  });

  it('lists what each caller may open', async () => {
    expect(ids(await admin.get('schema/list'))).toEqual(['demo.item_form', 'demo.item_list']);
    expect(ids(await roleReader.get('schema/list'))).toEqual(['demo.item_form', 'demo.item_list']);
    expect(ids(await textOnly.get('schema/list'))).toEqual([]);
    const item = (await admin.get('schema/list')).body.data.list[1];
    expect(item).toEqual({
      id: 'demo.item_list',
      version: 1,
      hash: expect.stringMatching(/^[0-9a-f]{16}$/),
      kind: 'list',
      routes: ['/admin_center/demo/items'],
      module: 'admin_center',
      permission: 'admin_center.admin.permission.role',
    });
  });
});

describe('GET schema/detail', () => {
  it('serves the schema, its enums and an ETag; 304 when the client has it', async () => {
    const r = await roleReader.get('schema/detail', { id: 'demo.item_list' });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(10000);
    expect(r.body.data.schema.id).toBe('demo.item_list');
    expect(Object.keys(r.body.data.enums)).toEqual(['task_status']);
    expect(r.headers.get('etag')).toBe(`"${r.body.data.hash}"`);
    const again = await roleReader.request('GET', 'schema/detail', {
      query: { id: 'demo.item_list' },
      headers: { 'if-none-match': r.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('answers 40004 alike for a missing and a forbidden schema, and 40001', async () => {
    const missing = (await textOnly.get('schema/detail', { id: 'demo.none' })).body;
    const forbidden = (await textOnly.get('schema/detail', { id: 'demo.item_list' })).body;
    expect(missing.code).toBe(40004);
    expect(forbidden.code).toBe(40004);
    expect(forbidden.msg.replaceAll('demo.item_list', 'X')).toBe(missing.msg.replaceAll('demo.none', 'X'));
    expect((await admin.get('schema/detail', { id: 'demo.none' })).body.code).toBe(40004);
    expect((await admin.get('schema/detail')).body.code).toBe(40001);
  });
});
