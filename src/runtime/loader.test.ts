import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpPort } from './env.js';
import { createSchemaCache } from './cache.js';
import { SCHEMA_CHECK } from '../contract/schema-check.js';
import { createSchemaLoader } from './loader.js';
import { findSchemaByRoute, matchRoute } from './routes.js';
import { SchemaLoadError, type SchemaListItem } from './types.js';

const list = (over: Record<string, unknown> = {}) => ({
  $schema: '../../meta/list.schema.json',
  id: 'demo.thing.list',
  kind: 'list',
  schemaVersion: 1,
  version: 1,
  module: 'admin_center',
  routes: ['/admin_center/things'],
  title: 'admin.demo.title',
  data: { api: 'GET thing/list' },
  columns: [{ key: 'name', title: 'admin.demo.name' }],
  ...over,
});

function fakeHttp(doc: Record<string, unknown>, hash = 'h1', checked?: string) {
  const state = { hash, doc, checked };
  const get = vi.fn(async (path: string) => {
    if (path === 'schema/list') {
      return { checked: state.checked, list: [{ id: 'demo.thing.list', version: 1, hash: state.hash, kind: 'list', routes: ['/admin_center/things'], module: 'admin_center' }] };
    }
    if (path === 'schema/detail') return { schema: state.doc, hash: state.hash, enums: {}, checked: state.checked };
    throw new Error(path);
  });
  return { state, http: { get, post: vi.fn(), download: vi.fn(), upload: vi.fn() } as unknown as HttpPort & { get: typeof get } };
}

// the generated validators are a large module: import them once, outside the per-test timeout
beforeAll(async () => {
  await import('../contract/generated/validators.js');
}, 60_000);

describe('schema loader', () => {
  it('loads, validates and caches by hash', async () => {
    const { http } = fakeHttp(list());
    const loader = createSchemaLoader(http, { storage: null });
    const a = await loader.load('demo.thing.list');
    expect(a.schema.kind).toBe('list');
    await loader.load('demo.thing.list');
    expect(http.get.mock.calls.filter((c) => c[0] === 'schema/detail')).toHaveLength(1);
  });

  it('hands a schema out once the texts it names are loaded (peek too, for a cached one)', async () => {
    const { http } = fakeHttp(list());
    let have = false;
    const seen: unknown[] = [];
    const texts = {
      ready: () => have,
      load: async (l: { schema: unknown }) => {
        seen.push(l.schema);
        have = true;
      },
    };
    const cache = createSchemaCache(null);
    const loader = createSchemaLoader(http, { storage: null, cache, texts });
    const a = await loader.load('demo.thing.list');
    expect(seen).toEqual([a.schema]);
    expect(loader.peek('demo.thing.list')).toBe(a);
    // the language changed, or another loader over the same cache: cached, but its texts are not in
    have = false;
    expect(loader.peek('demo.thing.list')).toBeUndefined();
    const b = await createSchemaLoader(http, { storage: null, cache, texts }).load('demo.thing.list');
    expect(b).toBe(a);
    expect(seen).toHaveLength(2);
    // the same loader, a load already answered: the texts are checked again on every load
    have = false;
    await loader.load('demo.thing.list');
    expect(seen).toHaveLength(3);
  });

  it('names id, JSON pointer and reason for an invalid schema', async () => {
    const { http } = fakeHttp(list({ columns: [{ key: 'name', title: 'admin.demo.name', colour: 'red' }] }));
    const err = await createSchemaLoader(http, { storage: null }).load('demo.thing.list').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaLoadError);
    const p = (err as SchemaLoadError).problems[0];
    expect(p.id).toBe('demo.thing.list');
    expect(p.pointer).toBe('/columns/0');
    expect(p.reason).toMatch(/colour/);
  });

  it('trusts the meta-schema check only when the server names this build\'s fingerprint', async () => {
    // a document the meta-schema rejects, so whether the client ran the check shows in the result
    const doc = list({ columns: [{ key: 'name', title: 'admin.demo.name', colour: 'red' }] });
    const same = await createSchemaLoader(fakeHttp(doc, 'h1', SCHEMA_CHECK).http, { storage: null }).load('demo.thing.list');
    expect(same.schema.id).toBe('demo.thing.list');
    for (const other of ['0000000000000000', undefined]) {
      const err = await createSchemaLoader(fakeHttp(doc, 'h1', other).http, { storage: null })
        .load('demo.thing.list')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SchemaLoadError);
      expect((err as SchemaLoadError).problems[0].pointer).toBe('/columns/0');
    }
    // the cheap checks still run on a server-checked reply
    const wrongId = await createSchemaLoader(fakeHttp(list({ id: 'other' }), 'h1', SCHEMA_CHECK).http, { storage: null })
      .load('demo.thing.list')
      .catch((e: unknown) => e);
    expect((wrongId as SchemaLoadError).problems[0].pointer).toBe('/id');
  });

  it('refuses an unsupported schemaVersion', async () => {
    const { http } = fakeHttp(list({ schemaVersion: 9 }));
    const err = (await createSchemaLoader(http, { storage: null }).load('demo.thing.list').catch((e: unknown) => e)) as SchemaLoadError;
    expect(err.problems[0]).toMatchObject({ pointer: '/schemaVersion' });
    expect(err.problems[0].reason).toMatch(/not supported/);
  });

  it('uses localStorage-style storage across loaders for the same hash', async () => {
    const mem = new Map<string, string>();
    const storage = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v), removeItem: (k: string) => void mem.delete(k) } as Storage;
    const first = fakeHttp(list());
    await createSchemaLoader(first.http, { cache: createSchemaCache(storage) }).load('demo.thing.list');
    const second = fakeHttp(list());
    await createSchemaLoader(second.http, { cache: createSchemaCache(storage) }).load('demo.thing.list');
    expect(second.http.get.mock.calls.some((c) => c[0] === 'schema/detail')).toBe(false);
  });

  it('tells subscribers when a hash changes (dev polling)', async () => {
    const { http, state } = fakeHttp(list());
    const loader = createSchemaLoader(http, { storage: null });
    await loader.load('demo.thing.list');
    const seen: string[][] = [];
    loader.subscribe((ids) => seen.push(ids));
    state.hash = 'h2';
    state.doc = list({ version: 2 });
    await loader.refreshList();
    expect(seen).toEqual([['demo.thing.list']]);
    expect((await loader.load('demo.thing.list')).schema.version).toBe(2);
  });

  it('resolves route and schema in one step; answers synchronously once both are known', async () => {
    const { http } = fakeHttp(list());
    const loader = createSchemaLoader(http, { storage: null });
    expect(loader.peekRoute('/admin_center/things')).toBeUndefined();
    const r = await loader.resolveRoute('/admin_center/things');
    expect(r?.hit.route).toBe('/admin_center/things');
    expect(r?.loaded.schema.kind).toBe('list');
    expect(loader.peekRoute('/admin_center/things')?.loaded).toBe(r?.loaded);
    expect(loader.peek('demo.thing.list')).toBe(r?.loaded);
    expect(loader.peekRoute('/admin_center/elsewhere')).toBeNull();
    expect(await loader.resolveRoute('/admin_center/elsewhere')).toBeNull();
    expect(http.get.mock.calls.map((c) => c[0])).toEqual(['schema/list', 'schema/detail']);
  });

  it('names schema/list when the index fails, and the schema when its check fails', async () => {
    const failing = fakeHttp(list());
    failing.http.get.mockRejectedValueOnce(new Error('offline'));
    const e1 = (await createSchemaLoader(failing.http, { storage: null }).resolveRoute('/admin_center/things').catch((e: unknown) => e)) as SchemaLoadError;
    expect(e1).toBeInstanceOf(SchemaLoadError);
    expect(e1.problems[0]).toMatchObject({ id: 'schema/list', reason: 'offline' });
    const { http } = fakeHttp(list({ schemaVersion: 9 }));
    const e2 = (await createSchemaLoader(http, { storage: null }).resolveRoute('/admin_center/things').catch((e: unknown) => e)) as SchemaLoadError;
    expect(e2.problems[0]).toMatchObject({ id: 'demo.thing.list', pointer: '/schemaVersion' });
  });

  it('a hash change makes peek miss until the new version is loaded', async () => {
    const { http, state } = fakeHttp(list());
    const loader = createSchemaLoader(http, { storage: null });
    await loader.resolveRoute('/admin_center/things');
    state.hash = 'h2';
    state.doc = list({ version: 2 });
    await loader.refreshList();
    expect(loader.peekRoute('/admin_center/things')).toBeUndefined();
    expect((await loader.resolveRoute('/admin_center/things'))?.loaded.schema.version).toBe(2);
    expect(loader.peek('demo.thing.list')?.schema.version).toBe(2);
  });

  it('hands a schema to onReceived listeners when it arrives, before its check', async () => {
    const { http } = fakeHttp(list({ schemaVersion: 9 }));
    const loader = createSchemaLoader(http, { storage: null });
    const got: Array<[string, unknown]> = [];
    const off = loader.onReceived((id, schema) => got.push([id, schema]));
    await loader.load('demo.thing.list').catch(() => undefined);
    expect(got).toHaveLength(1);
    expect(got[0][0]).toBe('demo.thing.list');
    expect((got[0][1] as { schemaVersion: number }).schemaVersion).toBe(9);
    off();
  });

  it('matches routes with params; static routes win', () => {
    expect(matchRoute('/a/edit/:id', '/a/edit/7')).toEqual({ id: '7' });
    expect(matchRoute('/a/edit/:id', '/a/edit')).toBeNull();
    const items = [
      { id: 'x', routes: ['/a/:id'] },
      { id: 'y', routes: ['/a/add'] },
    ] as unknown as SchemaListItem[];
    expect(findSchemaByRoute(items, '/a/add')?.item.id).toBe('y');
    expect(findSchemaByRoute(items, '/a/5')).toMatchObject({ params: { id: '5' }, route: '/a/:id' });
    expect(findSchemaByRoute(items, '/a/:id')?.item.id).toBe('x');
  });
});
