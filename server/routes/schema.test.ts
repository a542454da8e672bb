import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_FILE, makeFixture, type Fixture } from '../../scripts/lib/test-fixture.js';
import type { RouteDef, SessionUser } from '../http/route.js';
import { registerErrorHandling } from '../plugins/errors.js';
import { loadSchemas } from '../schemas/index.js';
import { routes } from './schema.js';
import { SCHEMA_CHECK } from '../../src/contract/schema-check.js';

/** The two routes on a bare Fastify, with the caller chosen by a test header (the real auth is the spine's). */
const users: Record<string, SessionUser> = {
  super: { id: 1, email: 's@x', name: 's', isSuperAdmin: true, keys: new Set(), sessionId: 1 },
  reader: { id: 2, email: 'r@x', name: 'r', isSuperAdmin: false, keys: new Set(['admin_center.demo.item']), sessionId: 2 },
  other: { id: 3, email: 'o@x', name: 'o', isSuperAdmin: false, keys: new Set(['intelligent_text.text_home']), sessionId: 3 },
};

let fx: Fixture;
let app: FastifyInstance;

beforeAll(async () => {
  fx = makeFixture();
  // a second list without a permission, in a module the "other" user has no key of
  fx.write('schemas/pages/demo/open.list.json', {
    ...fx.read(LIST_FILE),
    id: 'demo.open_list',
    routes: ['/admin_center/demo/open'],
    permission: undefined,
  });
  await loadSchemas(path.join(fx.root, 'schemas'), { watch: false });
  app = Fastify();
  registerErrorHandling(app);
  for (const r of routes as RouteDef[]) {
    app.get(`/api/admin/${r.path}`, async (req, reply) => {
      const user = users[String(req.headers['x-user'])];
      const ctx = { db: null as never, user, query: req.query as Record<string, unknown>, body: {}, req, reply, audit: async () => {} };
      if (r.raw) {
        await r.handler(ctx);
        return reply;
      }
      return { code: 10000, msg: 'ok', data: await r.handler(ctx) };
    });
  }
  await app.ready();
});

afterAll(async () => {
  await app.close();
  fx.cleanup();
});

const get = (url: string, user: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/admin/${url}`, headers: { 'x-user': user, ...headers } });

describe('schema routes', () => {
  it('lists every page and form to a super admin (enums are not listed)', async () => {
    const r = (await get('schema/list', 'super')).json();
    expect(r.data.list.map((s: { id: string }) => s.id)).toEqual(['demo.item_form', 'demo.item_list', 'demo.open_list']);
    const item = r.data.list.find((s: { id: string }) => s.id === 'demo.item_list');
    expect(item).toMatchObject({
      version: 1,
      kind: 'list',
      routes: ['/admin_center/demo/items'],
      module: 'admin_center',
      permission: 'admin_center.demo.item',
    });
    expect(item.hash).toMatch(/^[0-9a-f]{16}$/);
    // every served schema passed the generated meta-schema check: the reply names its fingerprint
    expect(r.data.checked).toBe(SCHEMA_CHECK);
  });

  it('lists only what the caller may open: the permission, else module access', async () => {
    const reader = (await get('schema/list', 'reader')).json().data.list.map((s: { id: string }) => s.id);
    expect(reader).toEqual(['demo.item_form', 'demo.item_list', 'demo.open_list']);
    const other = (await get('schema/list', 'other')).json().data.list.map((s: { id: string }) => s.id);
    expect(other).toEqual([]);
  });

  it('serves a schema with its enums and an ETag, and 304 when unchanged', async () => {
    const first = await get('schema/detail?id=demo.item_list', 'reader');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.code).toBe(10000);
    expect(body.data.schema.id).toBe('demo.item_list');
    expect(body.data.checked).toBe(SCHEMA_CHECK);
    expect(Object.keys(body.data.enums)).toEqual(['task_status']);
    expect(body.data.enums.task_status.items[0]).toMatchObject({ value: 'pending', label: { 'zh-CN': '待开始' } });
    expect(first.headers.etag).toBe(`"${body.data.hash}"`);
    const listed = (await get('schema/list', 'reader')).json().data.list.find((s: { id: string }) => s.id === 'demo.item_list');
    expect(listed.hash).toBe(body.data.hash);

    const again = await get('schema/detail?id=demo.item_list', 'reader', { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await get('schema/detail?id=demo.item_list', 'reader', { 'if-none-match': '"0000000000000000"' });
    expect(stale.statusCode).toBe(200);
  });

  it('answers 40004 alike for an unknown id and a schema the caller may not open', async () => {
    expect((await get('schema/detail?id=demo.nothing', 'super')).json()).toMatchObject({ code: 40004 });
    expect((await get('schema/detail?id=demo.item_list', 'other')).json()).toMatchObject({ code: 40004 });
  });
});
