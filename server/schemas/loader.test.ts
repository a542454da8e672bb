import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_FILE, makeFixture, type Fixture } from '../../scripts/lib/test-fixture.js';
import { SchemaLoadError, getSchemaStore, loadSchemas, stopSchemaWatch } from './index.js';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => {
  stopSchemaWatch();
  fx.cleanup();
});

const until = async (cond: () => boolean, ms = 4000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('loadSchemas', () => {
  it('loads pages, forms and enums with a short content hash, and fills the store', async () => {
    const store = await loadSchemas(path.join(fx.root, 'schemas'), { watch: false });
    expect(store.all().map((s) => `${s.kind}:${s.id}`)).toEqual(['form:demo.item_form', 'list:demo.item_list', 'enum:task_status']);
    expect(store.get('demo.item_list')!.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(store.get('demo.item_list')!.routes).toEqual(['/admin_center/demo/items']);
    expect(Object.keys(store.enumsFor('demo.item_list'))).toEqual(['task_status']);
    expect(getSchemaStore()).toBe(store);
  });

  it('gives the same hash for the same content in another key order', async () => {
    const a = (await loadSchemas(path.join(fx.root, 'schemas'), { watch: false })).get('demo.item_list')!.hash;
    const doc = fx.read(LIST_FILE);
    fx.write(LIST_FILE, Object.fromEntries(Object.entries(doc).reverse()));
    const b = (await loadSchemas(path.join(fx.root, 'schemas'), { watch: false })).get('demo.item_list')!.hash;
    expect(b).toBe(a);
  });

  it('refuses an invalid schema, naming file, JSON pointer and reason', async () => {
    fx.edit(LIST_FILE, (d) => {
      delete d.columns[0].title;
      d.pagination = { pageSize: 0 };
    });
    const err = await loadSchemas(path.join(fx.root, 'schemas'), { watch: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaLoadError);
    const msg = (err as Error).message;
    expect(msg).toContain(`${LIST_FILE}#/columns/0/title: required property is missing`);
    expect(msg).toContain(`${LIST_FILE}#/pagination/pageSize: must be >= 1`);
    expect((err as SchemaLoadError).problems.map((p) => p.pointer)).toEqual(['/columns/0/title', '/pagination/pageSize']);
  });

  it('refuses an unsupported schemaVersion and a $schema pointing elsewhere', async () => {
    fx.edit('schemas/forms/demo/item.form.json', (d) => (d.schemaVersion = 9));
    fx.edit(LIST_FILE, (d) => (d.$schema = '../meta/list.schema.json'));
    const err = (await loadSchemas(path.join(fx.root, 'schemas'), { watch: false }).catch((e: unknown) => e)) as Error;
    expect(err.message.split('\n').slice(1)).toEqual([
      'schemas/forms/demo/item.form.json#/schemaVersion: schemaVersion 9 is not supported (supported: 1)',
      'schemas/pages/demo/item.list.json#/$schema: must be "../../meta/list.schema.json" (relative path to the meta-schema)',
    ]);
  });

  it('refuses duplicate ids and routes', async () => {
    fx.write('schemas/pages/demo/dup.list.json', fx.read(LIST_FILE));
    const err = (await loadSchemas(path.join(fx.root, 'schemas'), { watch: false }).catch((e: unknown) => e)) as Error;
    expect(err.message.split('\n').slice(1)).toEqual([
      'schemas/pages/demo/item.list.json#/id: duplicate id "demo.item_list" (also in schemas/pages/demo/dup.list.json)',
      'schemas/pages/demo/item.list.json#/routes/0: duplicate route "/admin_center/demo/items" (also in schemas/pages/demo/dup.list.json)',
    ]);
  });

  it('says what a union allows when no form fits', async () => {
    fx.edit(LIST_FILE, (d) => (d.pagination = 'yes'));
    const err = (await loadSchemas(path.join(fx.root, 'schemas'), { watch: false }).catch((e: unknown) => e)) as Error;
    expect(err.message.split('\n').slice(1)).toEqual([
      `${LIST_FILE}#/pagination: matches none of the allowed forms (expected false or object)`,
    ]);
  });

  it('loads the project schemas within the start-up budget', async () => {
    const started = performance.now();
    const store = await loadSchemas(undefined, { watch: false });
    const ms = performance.now() - started;
    expect(store.size).toBeGreaterThan(20);
    expect(ms).toBeLessThan(1500); // target ≤ 300 ms; generous here for a loaded CI machine
  });

  it('dev watch swaps a changed file in and keeps the old one when the change is invalid', async () => {
    const errors: string[] = [];
    const store = await loadSchemas(path.join(fx.root, 'schemas'), {
      watch: true,
      log: { info: () => {}, error: (m) => errors.push(m) },
    });
    const before = store.get('demo.item_list')!.hash;
    fx.edit(LIST_FILE, (d) => {
      d.columns[0].width = 240;
      d.version = 2;
    });
    await until(() => store.get('demo.item_list')!.hash !== before);
    expect(store.get('demo.item_list')!.version).toBe(2);
    const good = store.get('demo.item_list')!.hash;

    fx.edit(LIST_FILE, (d) => (d.columns[0].width = 'wide'));
    await until(() => errors.length > 0);
    expect(errors[0]).toContain(`${LIST_FILE} is invalid, keeping the previous version`);
    expect(errors[0]).toContain(`${LIST_FILE}#/columns/0/width: must be integer`);
    expect(store.get('demo.item_list')!.hash).toBe(good);
  });
});
