import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readSchemaFiles, readSchemaFilesAt } from './docs.js';
import { diffEntries, diffSchemaChanges, formatText } from './diff.js';
import { FORM_FILE, LIST_FILE, formDoc, listDoc, makeFixture } from './test-fixture.js';

type Doc = Record<string, any>;

/** the one-line-per-schema summary of plain documents (no file names) */
const diffTrees = (before: Doc[], after: Doc[]) => formatText(diffEntries(before.map((doc) => ({ doc })), after.map((doc) => ({ doc }))));
/** the changes of one schema as texts, in reading order */
const diffSchema = (o: Doc, n: Doc) => diffSchemaChanges(o, n).map((c) => c.text);

const shopV3 = (): Doc => ({
  ...listDoc(),
  id: 'shop.list',
  version: 3,
  permission: 'intelligent_text.text.shop.list',
  routes: ['/intelligent_text/shop/list'],
  data: { api: 'GET shop/list' },
  filters: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'text.shop.name', 'x-component': 'Input' },
      country_code: { type: 'string', title: 'text.shop.country', 'x-component': 'Input' },
    },
  },
  columns: [
    { key: 'id', title: 'text.shop.id' },
    { key: 'name', title: 'text.shop.name' },
  ],
  toolbar: [],
  rowActions: [{ key: 'delete', type: 'request', label: 'common.delete', api: 'POST shop/delete' }],
});

const shopV4 = (): Doc => {
  const d = shopV3();
  d.version = 4;
  d.columns.push({ key: 'plugin_status', title: 'text.shop.plugin_status', widget: 'EnumTag', enum: 'plugin_status' });
  delete d.filters.properties.country_code;
  d.rowActions[0].permission = 'intelligent_text.text.shop.delete';
  return d;
};

describe('schemas:diff', () => {
  it('summarises a list change as the issue example does', () => {
    expect(diffTrees([shopV3()], [shopV4()])).toEqual([
      'shop.list v3→v4: column plugin_status added; filter country_code removed; row action delete now needs intelligent_text.text.shop.delete',
    ]);
  });

  it('names data source, permission, route, column, filter and action changes', () => {
    const o = shopV3();
    const n = shopV3();
    n.version = 4;
    n.data = { api: 'GET shop/search', params: { env: 'all' } };
    n.permission = 'intelligent_text.text.shop.view';
    n.routes = ['/intelligent_text/shop/list', '/intelligent_text/shops'];
    n.columns[1].enum = 'env';
    n.columns[1].width = 120;
    n.columns.reverse();
    n.filters.properties.name['x-component'] = 'Select';
    n.rowActions[0].api = 'POST shop/remove';
    n.toolbar.push({ key: 'add', type: 'openForm', label: 'common.add', form: 'shop.form', mode: 'add' });
    n.pagination = { pageSize: 20 };
    expect(diffSchema(o, n)).toEqual([
      'page now needs intelligent_text.text.shop.view (was intelligent_text.text.shop.list)',
      'route /intelligent_text/shops added',
      'data source GET shop/list → GET shop/search (API path changed)',
      'data source params env - → all',
      'column name enum - → env',
      'column name width - → 120',
      'columns reordered',
      'filter name widget Input → Select',
      'toolbar action add added',
      'row action delete POST shop/delete → POST shop/remove (API path changed)',
      'pagination added',
    ]);
  });

  it('names a change outside the fields of a form, and a filter form added', () => {
    const o: Doc = { ...formDoc(), version: 1 };
    const n: Doc = structuredClone(o);
    n.version = 2;
    n.schema['x-component-props'] = { labelCol: 6 };
    const l1: Doc = { ...listDoc(), filters: undefined };
    const l2: Doc = { ...listDoc(), version: 2 };
    expect(diffSchema(o, n)).toEqual(['form props labelCol - → 6']);
    expect(diffSchema(l1, l2)).toEqual(['filter name added', 'filter form added']);
  });

  it('names form fields, modes, submit calls and enum items; lists added and removed schemas', () => {
    const f1 = formDoc();
    const f2: Doc = formDoc();
    f2.version = 2;
    f2.schema.properties.email = { type: 'string', title: 'demo.item.email', 'x-component': 'Input' };
    f2.schema.properties.name['x-permission'] = 'admin_center.demo.item.rename';
    f2.modes.edit = { route: '/admin_center/demo/items/edit/:id', submit: { api: 'POST item/update' } };
    f2.modes.add.submit.api = 'POST item/add';
    const e1: Doc = { id: 'plugin_status', kind: 'enum', version: 1, items: [{ value: 0, label: { 'zh-CN': '否', 'en-US': 'No' } }, { value: 1, label: { 'zh-CN': '是', 'en-US': 'Yes' } }] };
    const e2: Doc = structuredClone(e1);
    e2.version = 2;
    e2.items[1].color = 'success';
    e2.items.push({ value: 2, label: { 'zh-CN': '过期', 'en-US': 'Expired' } });
    e2.items.shift();
    const gone: Doc = { ...listDoc(), id: 'demo.old_list' };
    const fresh: Doc = { ...listDoc(), id: 'demo.new_list', routes: ['/admin_center/demo/new'] };
    expect(diffTrees([f1, e1, gone], [f2, e2, fresh])).toEqual([
      'demo.item_form v1→v2: field name now needs admin_center.demo.item.rename; field email added; RISKY mode add submit POST item/create → POST item/add (API path changed); mode edit added',
      'demo.new_list v1: added (list, routes /admin_center/demo/new, needs admin_center.demo.item)',
      'demo.old_list v1: removed',
      'plugin_status v1→v2: item 1 color - → success; item 2 added; item 0 removed',
    ]);
  });

  it('reads the old side from git and the new side from the working tree', async () => {
    const fx = makeFixture();
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: fx.root, stdio: 'pipe' });
      git('init', '-q');
      git('add', '.');
      git('commit', '-q', '-m', 'base');
      fx.edit(LIST_FILE, (d) => {
        d.version = 2;
        d.columns.push({ key: 'created_at', title: 'demo.item.name', widget: 'EnumTag' });
      });
      fx.edit(FORM_FILE, (d) => {
        d.version = 2;
        delete d.schema.properties.name['x-validator'];
      });
      const lines = formatText(diffEntries(await readSchemaFilesAt(fx.root, 'HEAD'), await readSchemaFiles(fx.root)));
      expect(lines).toEqual([
        'demo.item_form v1→v2: RISKY field name no longer required',
        'demo.item_list v1→v2: column created_at added',
      ]);
    } finally {
      fx.cleanup();
    }
  });
});
