import { describe, expect, it } from 'vitest';
import { applyDefaults } from './defaults.js';

const ENUMS: Record<string, unknown[]> = { task_status: ['pending', 'running'], yes_no: [1, 0] };
const apply = (doc: Record<string, unknown>, file = 'pages/demo/x.list.json') => {
  applyDefaults(doc, { file, enumValues: (id) => ENUMS[id] });
  return doc;
};

describe('schema language defaults (issue 22)', () => {
  it('fills the header (schemaVersion, module from the folder) and the form presentation', () => {
    expect(apply({ kind: 'list', columns: [] })).toMatchObject({ schemaVersion: 1, module: 'demo' });
    expect(apply({ kind: 'form', module: 'admin_center', modes: { add: {} } }, 'forms/demo/f.json')).toMatchObject({ module: 'admin_center', presentation: 'modal' });
    expect(apply({ kind: 'form', modes: { edit: { route: '/demo/x/:id' } } }, 'forms/demo/f.json')).toMatchObject({ presentation: 'page', module: 'demo' });
    // an enum is left as written
    expect(apply({ kind: 'enum', items: [] }, 'enums/yes_no.json')).toEqual({ kind: 'enum', items: [] });
  });

  it('gives filter fields their widget, type, decorator, clear button and width', () => {
    const doc = apply({
      kind: 'list',
      filters: {
        properties: {
          keyword: { title: 'a.b' },
          status: { 'x-enum': 'task_status' },
          flag: { 'x-enum': 'yes_no', 'x-component': 'Radio.Group' },
          shop_id: { 'x-component': 'RemoteSelect', 'x-component-props': { api: 'GET shop-list' } },
          wide: { 'x-component': 'RemoteSelect', 'x-component-props': { style: { width: 300 } } },
          n: { 'x-component': 'NumberPicker' },
          keep: { type: 'string', 'x-component-props': { allowClear: false } },
        },
      },
      columns: [],
    });
    const p = (doc.filters as { type: string; properties: Record<string, Record<string, unknown>> }).properties;
    expect((doc.filters as { type: string }).type).toBe('object');
    expect(p.keyword).toEqual({ title: 'a.b', type: 'string', 'x-component': 'Input', 'x-component-props': { allowClear: true }, 'x-decorator': 'FormItem' });
    expect(p.status).toMatchObject({ type: 'string', 'x-component': 'Select', 'x-component-props': { allowClear: true } });
    expect(p.flag).toMatchObject({ type: 'number', 'x-component': 'Radio.Group' });
    expect(p.flag['x-component-props']).toBeUndefined();
    expect(p.shop_id).toMatchObject({ type: 'number', 'x-component-props': { api: 'GET shop-list', style: { width: 220 } } });
    expect(p.wide['x-component-props']).toEqual({ style: { width: 300 } });
    expect(p.n).toEqual({ 'x-component': 'NumberPicker', type: 'number', 'x-decorator': 'FormItem' });
    expect(p.keep['x-component-props']).toEqual({ allowClear: false });
  });

  it('expands a range filter into a 260 px date range sent as _from / _to, the page\'s own params winning', () => {
    const doc = apply({
      kind: 'list',
      data: { api: 'GET x/list', params: { created_at_to: '{{ filters.created_at[1] }}T23' } },
      filters: { properties: { created_at: { type: 'range', title: 'a.b' } } },
      columns: [],
    });
    expect((doc.filters as { properties: Record<string, unknown> }).properties.created_at).toEqual({
      type: 'array',
      title: 'a.b',
      'x-component': 'DatePicker.RangePicker',
      'x-component-props': { style: { width: 260 } },
      'x-decorator': 'FormItem',
    });
    expect((doc.data as { params: unknown }).params).toEqual({ created_at_to: '{{ filters.created_at[1] }}T23', created_at_from: '{{ filters.created_at[0] }}' });
  });

  it('form fields: no clear button or width by default; void, arrays and an explicit null decorator keep theirs', () => {
    const doc = apply(
      {
        kind: 'form',
        schema: {
          properties: {
            name: { title: 'a.b' },
            grid: { type: 'void', 'x-component': 'FormGrid', properties: { note: { 'x-component': 'Input.TextArea' } } },
            list: { 'x-component': 'ArrayItems', items: { type: 'object', properties: { v: { 'x-component': 'Switch', 'x-decorator': null } } } },
            when: { type: 'range' },
          },
        },
      },
      'forms/demo/f.json',
    );
    const p = (doc.schema as { type: string; properties: Record<string, Record<string, unknown>> }).properties;
    expect((doc.schema as { type: string }).type).toBe('object');
    expect(p.name).toEqual({ title: 'a.b', type: 'string', 'x-component': 'Input', 'x-decorator': 'FormItem' });
    expect(p.grid['x-decorator']).toBeUndefined();
    // a textarea says its HTML default height
    expect((p.grid.properties as Record<string, unknown>).note).toEqual({ 'x-component': 'Input.TextArea', type: 'string', 'x-component-props': { rows: 2 }, 'x-decorator': 'FormItem' });
    expect(p.list).toMatchObject({ type: 'array' });
    expect(p.list['x-decorator']).toBeUndefined();
    expect(((p.list.items as { properties: Record<string, unknown> }).properties.v)).toEqual({ 'x-component': 'Switch', type: 'boolean' });
    expect(p.when).toEqual({ type: 'array', 'x-component': 'DatePicker.RangePicker', 'x-decorator': 'FormItem' });
  });

  it('columns: id and DateTime widths, EnumTag for an enum; actions: refresh, row id, form modes, batch selection', () => {
    const doc = apply({
      kind: 'list',
      selectAllMatching: true,
      columns: [
        { key: 'id', title: 'a.id' },
        { key: 'at', title: 'a.at', widget: 'DateTime' },
        { key: 'at2', title: 'a.at', widget: 'DateTime', width: 200 },
        { key: 'status', title: 'a.s', enum: 'task_status' },
        { key: 'name', title: 'a.n' },
      ],
      toolbar: [{ key: 'add', type: 'openForm', form: 'f' }, { key: 'go', type: 'navigate', to: '/x' }],
      rowActions: [
        { key: 'edit', type: 'openForm', form: 'f' },
        { key: 'copy', type: 'openForm', form: 'f', mode: 'add' },
        { key: 'delete', type: 'request', api: 'POST x/delete' },
        { key: 'stay', type: 'request', api: 'POST x/ping', body: {}, refresh: false },
      ],
      batchActions: [{ key: 'b', type: 'request', api: 'POST x/batch', body: { action: 'stop' } }],
    });
    const cols = doc.columns as Array<Record<string, unknown>>;
    expect(cols.map((c) => c.width)).toEqual([80, 170, 200, undefined, undefined]);
    expect(cols[3].widget).toBe('EnumTag');
    expect(doc.toolbar).toEqual([{ key: 'add', type: 'openForm', form: 'f', mode: 'add', refresh: true, primary: true }, { key: 'go', type: 'navigate', to: '/x' }]);
    expect(doc.rowActions).toEqual([
      { key: 'edit', type: 'openForm', form: 'f', mode: 'edit', params: { id: '{{ record.id }}' }, refresh: true },
      { key: 'copy', type: 'openForm', form: 'f', mode: 'add', refresh: true },
      { key: 'delete', type: 'request', api: 'POST x/delete', body: { id: '{{ record.id }}' }, refresh: true, danger: true },
      { key: 'stay', type: 'request', api: 'POST x/ping', body: {}, refresh: false },
    ]);
    expect((doc.batchActions as Array<{ body: unknown }>)[0].body).toEqual({
      action: 'stop',
      ids: '{{ allMatching ? undefined : selectedKeys }}',
      filter: '{{ allMatching ? matchFilter : undefined }}',
    });
    const plain = apply({ kind: 'list', columns: [], batchActions: [{ key: 'b', type: 'request', api: 'POST x/batch' }] });
    expect((plain.batchActions as Array<{ body: unknown }>)[0].body).toEqual({ ids: '{{ selectedKeys }}' });
  });

  it('kind from $schema, DateTime for *_at, the page key on actions, the shop picker, standard batch texts', () => {
    const doc = apply({
      $schema: '../../meta/list.schema.json',
      permission: 'admin_center.demo.page',
      selectAllMatching: true,
      filters: { properties: { shop_id: { 'x-component': 'RemoteSelect', 'x-component-props': { api: 'GET shop-list' } } } },
      columns: [{ key: 'finished_at', title: 'a.f' }, { key: 'when_at', title: 'a.w', widget: 'Text' }],
      rowActions: [{ key: 'x', type: 'navigate', to: '/x' }, { key: 'y', type: 'navigate', to: '/y', permission: 'admin_center.demo.other' }],
      batchActions: [{ key: 'batchStop', type: 'request', api: 'POST x/batch' }, { key: 'batchArchive', type: 'request', api: 'POST x/batch' }],
    });
    expect(doc.kind).toBe('list');
    expect(doc.columns).toEqual([
      { key: 'finished_at', title: 'a.f', widget: 'DateTime', width: 170 },
      { key: 'when_at', title: 'a.w', widget: 'Text' },
    ]);
    expect((doc.rowActions as Array<{ permission: string }>).map((a) => a.permission)).toEqual(['admin_center.demo.page', 'admin_center.demo.other']);
    const shop = (doc.filters as { properties: Record<string, Record<string, unknown>> }).properties.shop_id;
    expect(shop['x-component-props']).toEqual({ api: 'GET shop-list', params: { env: 'all' }, labelKey: 'label', style: { width: 220 } });
    const [stop, archive] = doc.batchActions as Array<Record<string, unknown>>;
    expect(stop).toMatchObject({ confirm: 'runtime.list.batchStopConfirm', successMessage: 'runtime.list.batchDone', refresh: true });
    expect(archive.confirm).toBeUndefined();
    expect(archive.successMessage).toBeUndefined();
  });
});
