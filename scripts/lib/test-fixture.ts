/** Small schema trees in a temp dir for the schema tool tests: one valid list, one form, one enum. */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripEditorValues } from '../../schemas/meta/src/files.js';
import { TEXT_KEYS } from '../../schemas/meta/src/index.js';
import type { CheckInputs } from './check.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const LIST_FILE = 'schemas/pages/demo/item.list.json';
export const FORM_FILE = 'schemas/forms/demo/item.form.json';
export const ENUM_FILE = 'schemas/enums/task_status.json';

export const listDoc = () => ({
  $schema: '../../meta/list.schema.json',
  id: 'demo.item_list',
  kind: 'list',
  schemaVersion: 1,
  version: 1,
  module: 'admin_center',
  routes: ['/admin_center/demo/items'],
  permission: 'admin_center.demo.item',
  title: 'demo.item.title',
  data: { api: 'GET item/list' },
  filters: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        title: 'demo.item.name',
        'x-component': 'Input',
        'x-decorator': 'FormItem',
        'x-component-props': { placeholder: 'demo.item.name_placeholder' },
      },
    },
  },
  columns: [
    { key: 'name', title: 'demo.item.name' },
    { key: 'status', title: 'demo.item.status', widget: 'EnumTag', enum: 'task_status' },
  ],
  toolbar: [{ key: 'add', type: 'openForm', label: 'demo.item.add', form: 'demo.item_form', mode: 'add' }],
  rowActions: [
    {
      key: 'delete',
      type: 'request',
      label: 'demo.item.delete',
      api: 'POST item/delete',
      confirm: 'demo.item.confirm_delete',
      permission: 'admin_center.demo.item.delete',
      body: { id: '{{ record.id }}' },
    },
  ],
});

export const formDoc = () => ({
  $schema: '../../meta/form.schema.json',
  id: 'demo.item_form',
  kind: 'form',
  schemaVersion: 1,
  version: 1,
  module: 'admin_center',
  title: 'demo.item.add',
  presentation: 'modal',
  modes: { add: { submit: { api: 'POST item/create', successMessage: 'demo.item.saved' } } },
  schema: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        title: 'demo.item.name',
        'x-component': 'Input',
        'x-decorator': 'FormItem',
        'x-validator': [{ required: true, message: 'demo.item.name_required' }],
      },
    },
  },
});

const texts = {
  item: {
    title: 'Items',
    name: 'Name',
    name_placeholder: 'Name',
    status: 'Status',
    add: 'Add',
    delete: 'Delete',
    confirm_delete: 'Delete?',
    saved: 'Saved',
    name_required: 'Name is required',
  },
};

export interface Fixture {
  root: string;
  write(file: string, doc: unknown): void;
  read(file: string): Record<string, unknown>;
  edit(file: string, fn: (doc: Record<string, any>) => void): void;
  inputs(base?: string | null): CheckInputs;
  cleanup(): void;
}

export function makeFixture(): Fixture {
  const root = mkdtempSync(path.join(tmpdir(), 'schemas-fixture-'));
  const write = (file: string, doc: unknown) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), typeof doc === 'string' ? doc : `${JSON.stringify(doc, null, 2)}\n`);
  };
  const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
  mkdirSync(path.join(root, 'schemas/meta'), { recursive: true });
  // the structural meta-schemas (the project's, without its editor value lists): a fixture
  // names its own widgets, APIs and permission keys
  for (const kind of ['list', 'form', 'detail', 'tabs', 'enum']) {
    const meta = stripEditorValues(JSON.parse(readFileSync(path.join(projectRoot, `schemas/meta/${kind}.schema.json`), 'utf8')) as unknown);
    writeFileSync(path.join(root, `schemas/meta/${kind}.schema.json`), `${JSON.stringify(meta, null, 2)}\n`);
  }
  cpSync(path.join(projectRoot, ENUM_FILE), path.join(root, ENUM_FILE));
  write(LIST_FILE, listDoc());
  write(FORM_FILE, formDoc());
  write('src/locales/zh-CN/demo.json', texts);
  write('src/locales/en-US/demo.json', texts);
  return {
    root,
    write,
    read,
    edit(file, fn) {
      const doc = read(file);
      fn(doc);
      write(file, doc);
    },
    inputs: (base = null) => ({
      root,
      widgets: new Set(['Input', 'Select', 'FormItem', 'EnumTag']),
      textKeys: TEXT_KEYS,
      apis: new Set(['GET item/list', 'POST item/create', 'POST item/delete']),
      sorts: new Map([['GET item/list', ['id', 'name']]]),
      permissionKeys: new Set(['admin_center.demo.item', 'admin_center.demo.item.delete']),
      manifestRoutes: new Set(['/admin_center/demo/items']),
      base,
    }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
