import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandDoc, type FragmentReader } from './expand.js';

const SCHEMAS = '/p/schemas';
const FILE = 'schemas/pages/m/a.list.json';
const ABS = path.join(SCHEMAS, 'pages/m/a.list.json');

const reader =
  (files: Record<string, unknown>): FragmentReader =>
  (abs) => {
    const rel = path.relative(SCHEMAS, abs).split(path.sep).join('/');
    return rel in files ? JSON.stringify(files[rel]) : null;
  };

describe('expandDoc', () => {
  it('splices array fragments, replaces values, merges siblings over object targets', () => {
    const frag = {
      columns: [{ key: 'a' }, { key: 'b' }],
      filters: { type: 'object', properties: { kw: { type: 'string', 'x-component': 'Input' } } },
    };
    const doc = {
      id: 'x',
      kind: 'list',
      columns: [{ key: 'id' }, { $ref: '../../fragments/f.json#/columns' }, { key: 'z' }],
      filters: { $ref: '../../fragments/f.json#/filters', properties: { env: { type: 'string', 'x-enum': 'env' } } },
    };
    const r = expandDoc(doc, FILE, ABS, SCHEMAS, { read: reader({ 'fragments/f.json': frag }) });
    expect(r.problems).toEqual([]);
    expect(r.fragments).toEqual([path.join(SCHEMAS, 'fragments/f.json')]);
    expect((r.doc.columns as Array<{ key: string }>).map((c) => c.key)).toEqual(['id', 'a', 'b', 'z']);
    expect(r.doc.filters).toEqual({
      type: 'object',
      properties: {
        // filters clear by default and a Select is 120 px wide (defaults.ts; defaults.test.ts has the rest)
        kw: { type: 'string', 'x-component': 'Input', 'x-component-props': { allowClear: true }, 'x-decorator': 'FormItem' },
        env: { type: 'string', 'x-enum': 'env', 'x-component': 'Select', 'x-component-props': { allowClear: true, style: { width: 120 } }, 'x-decorator': 'FormItem' },
      },
    });
  });

  it('fills the defaults only where the schema says nothing, and keeps void and array containers bare', () => {
    const doc = {
      id: 'f',
      kind: 'form',
      schema: {
        type: 'object',
        properties: {
          hint: { type: 'void', 'x-component': 'Text' },
          list: { type: 'array', 'x-component': 'ArrayItems', items: { type: 'object', properties: { n: { type: 'string', 'x-component': 'Input' } } } },
          bare: { type: 'string', 'x-component': 'Input', 'x-decorator': null },
          own: { type: 'string', 'x-component': 'Input', 'x-decorator': 'Other' },
        },
      },
    };
    const r = expandDoc(doc, FILE, ABS, SCHEMAS, { read: reader({}) });
    const p = (r.doc.schema as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(p.hint['x-decorator']).toBeUndefined();
    expect(p.list['x-decorator']).toBeUndefined();
    expect((p.list.items as { properties: Record<string, Record<string, unknown>> }).properties.n['x-decorator']).toBe('FormItem');
    expect('x-decorator' in p.bare).toBe(false);
    expect(p.own['x-decorator']).toBe('Other');
  });

  it('reports a missing file, a missing pointer, a target outside fragments/ and a cycle with file and pointer', () => {
    const doc = {
      id: 'x',
      kind: 'list',
      columns: [{ $ref: '../../fragments/none.json#/a' }],
      toolbar: { $ref: '../../fragments/f.json#/nope' },
      rowActions: { $ref: '../a.list.json' },
      data: { $ref: '../../fragments/c1.json' },
    };
    const r = expandDoc(doc, FILE, ABS, SCHEMAS, {
      read: reader({ 'fragments/f.json': {}, 'fragments/c1.json': { $ref: 'c2.json' }, 'fragments/c2.json': { $ref: 'c1.json' } }),
    });
    const lines = r.problems.map((p) => `${p.file}#${p.pointer}: ${p.reason}`);
    expect(lines).toEqual([
      'schemas/pages/m/a.list.json#/columns/0/$ref: "../../fragments/none.json#/a": fragment file schemas/fragments/none.json not found',
      'schemas/pages/m/a.list.json#/toolbar/$ref: "../../fragments/f.json#/nope": no value at pointer "/nope" in schemas/fragments/f.json',
      'schemas/pages/m/a.list.json#/rowActions/$ref: "../a.list.json": fragments live under schemas/fragments/ and are .json files',
      'schemas/fragments/c2.json#/$ref: "c1.json": fragment reference cycle: schemas/fragments/c1.json# → schemas/fragments/c2.json# → schemas/fragments/c1.json#',
    ]);
  });
});
