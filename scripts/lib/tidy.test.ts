import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readExpandedSchema } from '../../server/schemas/expand.js';
import { inline, writeLike } from './json-layout.js';
import { canonical, tidySchemas } from './tidy.js';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

const PAGE = 'schemas/pages/demo/a.list.json';
const COLS = 'schemas/fragments/pages/cols.json';
const ORPHAN = 'schemas/fragments/pages/orphan.json';
const SHOP = 'schemas/fragments/pages/filters.json';

function tree(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'tidy-'));
  const files: Record<string, unknown> = {
    [PAGE]: {
      $schema: '../../meta/list.schema.json',
      id: 'demo.a_list',
      kind: 'list',
      schemaVersion: 1,
      version: 3,
      module: 'demo',
      title: 'demo.a.title',
      data: { api: 'GET a/list', params: { created_at_from: '{{ filters.created_at[0] }}', created_at_to: '{{ filters.created_at[1] }}' } },
      filters: {
        type: 'object',
        properties: {
          keyword: { type: 'string', title: 'demo.a.keyword', 'x-component': 'Input', 'x-component-props': { allowClear: true } },
          shop_id: {
            type: 'number',
            title: 'shared.common.shop',
            'x-component': 'RemoteSelect',
            'x-component-props': { api: 'GET shop-list', params: { env: 'all' }, labelKey: 'label', style: { width: 220 }, placeholder: 'shared.common.shopPh' },
          },
          created_at: { type: 'array', title: 'demo.a.range', 'x-component': 'DatePicker.RangePicker', 'x-component-props': { style: { width: 260 } } },
        },
      },
      columns: [{ key: 'id', title: 'demo.a.id', width: 80 }, { key: 'name', title: 'demo.a.name', width: 133 }, { $ref: '../../fragments/pages/cols.json#/columns' }],
      rowActions: [{ key: 'delete', type: 'request', label: 'demo.a.delete', api: 'POST a/delete', body: { id: '{{ record.id }}' }, refresh: true }],
    },
    [COLS]: { $schema: '../../meta/page-fragment.schema.json', columns: [{ key: 'created_at', title: 'demo.a.at', widget: 'DateTime', width: 170 }] },
    [ORPHAN]: { $schema: '../../meta/page-fragment.schema.json', columns: [{ key: 'id', title: 'demo.a.id', width: 80 }] },
    [SHOP]: {
      $schema: '../../meta/page-fragment.schema.json',
      filters: {
        properties: {
          shop_id: {
            type: 'number',
            title: 'shared.common.shop',
            'x-component': 'RemoteSelect',
            'x-component-props': { api: 'GET shop-list', params: { env: 'all' }, labelKey: 'label', placeholder: 'shared.common.shopPh' },
          },
        },
      },
    },
  };
  for (const [f, doc] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), JSON.stringify(doc, null, 2) + '\n');
  }
  return dir;
}

const served = (root: string) => canonical(readExpandedSchema(path.join(root, PAGE), path.join(root, 'schemas')));

async function tidyInPlace(root: string) {
  const r = await tidySchemas(root);
  for (const [f, text] of r.changed) writeFileSync(path.join(root, f), text);
  return r;
}

describe('schemas:tidy', () => {
  it('removes what the defaults and fragments say, serves the same schema, and a second run changes nothing', async () => {
    const root = tree();
    const before = served(root);
    const r = await tidyInPlace(root);
    // the shop filter fragment too, once the page uses it (the shop picker's params and label key are defaults)
    expect([...r.changed.keys()].sort()).toEqual([COLS, SHOP, PAGE]);
    expect(JSON.parse(readFileSync(path.join(root, SHOP), 'utf8')).filters.properties.shop_id['x-component-props']).toEqual({ api: 'GET shop-list', placeholder: 'shared.common.shopPh' });
    expect(served(root)).toBe(before);
    const page = JSON.parse(readFileSync(path.join(root, PAGE), 'utf8'));
    // header kept (kind, module and schemaVersion have defaults), the rest says only what differs
    expect(Object.keys(page).slice(0, 4)).toEqual(['$schema', 'id', 'version', 'title']);
    expect(page.data).toEqual({ api: 'GET a/list' });
    expect(page.filters).toEqual({
      properties: {
        keyword: { title: 'demo.a.keyword' },
        shop_id: { $ref: '../../fragments/pages/filters.json#/filters/properties/shop_id' },
        created_at: { type: 'range', title: 'demo.a.range' },
      },
    });
    expect(page.columns.slice(0, 2)).toEqual([{ key: 'id', title: 'demo.a.id' }, { key: 'name', title: 'demo.a.name', width: 133 }]);
    expect(page.rowActions).toEqual([{ key: 'delete', type: 'request', label: 'demo.a.delete', api: 'POST a/delete' }]);
    // a *_at column is a 170 px DateTime by default
    expect(JSON.parse(readFileSync(path.join(root, COLS), 'utf8')).columns).toEqual([{ key: 'created_at', title: 'demo.a.at' }]);
    // a fragment no page uses is not touched (nothing proves a removal safe)
    expect(JSON.parse(readFileSync(path.join(root, ORPHAN), 'utf8')).columns[0].width).toBe(80);
    // the compact formatting: what fits in 110 columns sits on one line
    expect(readFileSync(path.join(root, PAGE), 'utf8')).toContain('\n  "data": { "api": "GET a/list" },\n');
    expect((await tidySchemas(root)).changed.size).toBe(0);
  });
});

describe('json-layout writeLike', () => {
  it('keeps unchanged text byte for byte and lays out changed values by the 110-column rule', () => {
    const source = '{\n  "a": {\n    "x": 1\n  },\n  "b": {\n    "keep": [1,2],\n    "drop": true\n  }\n}\n';
    const doc = JSON.parse(source);
    expect(writeLike(source, doc)).toBe(source);
    delete doc.b.drop;
    expect(writeLike(source, doc)).toBe('{\n  "a": {\n    "x": 1\n  },\n  "b": { "keep": [1, 2] }\n}\n');
    expect(inline({ a: [1, { b: 'c' }], d: {} })).toBe('{ "a": [1, { "b": "c" }], "d": {} }');
  });
});
