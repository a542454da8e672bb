/**
 * The schemas the bench's schema pages render, in the product's schema language (validated by
 * the runtime with the same ajv code as every real schema): the 100 × 12 list (also opened with
 * `?page_size=10000` for the virtual table) and the 300-field form. Same columns, enums and
 * fields as the hand-written baselines (data.ts, form-fields.ts).
 */
import { COLUMNS, ENUMS } from './data.js';
import { FIELD_COUNT, formProperties } from './form-fields.js';

export const LIST_ROUTE = '/intelligent_text/bench/list';
export const FORM_ROUTE = '/intelligent_text/bench/form';

const widgetOf: Record<string, Record<string, unknown>> = {
  text: { ellipsis: true },
  number: { align: 'right' },
  tag: {},
  bool: { widget: 'BooleanText' },
  date: { widget: 'DateTime' },
  link: { widget: 'Link', ellipsis: true },
};

export const listSchema = {
  $schema: '../meta/list.schema.json',
  id: 'intelligent_text.bench_list',
  kind: 'list',
  schemaVersion: 1,
  version: 1,
  module: 'intelligent_text',
  routes: [LIST_ROUTE],
  title: 'bench.list.title',
  data: { api: 'GET bench/list' },
  filters: {
    type: 'object',
    properties: {
      keyword: {
        type: 'string',
        title: 'bench.list.keyword',
        'x-decorator': 'FormItem',
        'x-component': 'Input',
        'x-component-props': { placeholder: 'bench.list.keywordPlaceholder', allowClear: true },
      },
      env: {
        type: 'string',
        title: 'bench.col.env',
        'x-decorator': 'FormItem',
        'x-component': 'Select',
        'x-enum': 'bench_env',
        'x-component-props': { allowClear: true, style: { width: 160 } },
      },
      created: {
        type: 'array',
        title: 'bench.col.created_at',
        'x-decorator': 'FormItem',
        'x-component': 'DatePicker.RangePicker',
      },
    },
  },
  columns: COLUMNS.map((c) => ({
    key: c.key,
    title: `bench.col.${c.key}`,
    width: c.width,
    ...(c.kind === 'tag' ? { enum: `bench_${c.key}` } : widgetOf[c.kind]),
    ...(c.key === 'id' || c.key === 'created_at' ? { sorter: true } : {}),
  })),
  toolbar: [{ key: 'add', type: 'navigate', label: 'bench.list.add', primary: true, to: LIST_ROUTE }],
  pagination: { pageSize: 100, virtualThreshold: 1000 },
  columnSettings: false,
  scrollX: 1800,
};

export const enums = Object.fromEntries(
  Object.entries(ENUMS).map(([key, items]) => [
    `bench_${key}`,
    {
      $schema: '../meta/enum.schema.json',
      id: `bench_${key}`,
      kind: 'enum',
      schemaVersion: 1,
      version: 1,
      items: items.map((e) => ({ value: e.value, label: { 'zh-CN': e.label, 'en-US': e.label }, color: e.color })),
    },
  ]),
);

let form: ReturnType<typeof makeFormSchema> | null = null;
/** Built on first use, so the list pages do not pay for the 300 fields. */
export const formSchema = () => (form ??= makeFormSchema());

const makeFormSchema = () => ({
  $schema: '../meta/form.schema.json',
  id: 'intelligent_text.bench_form',
  kind: 'form',
  schemaVersion: 1,
  version: 1,
  module: 'intelligent_text',
  title: 'bench.form.title',
  presentation: 'page',
  modes: { add: { route: FORM_ROUTE, submit: { api: 'POST bench/save' } } },
  schema: { type: 'object', properties: formProperties(FIELD_COUNT) },
  layout: { labelCol: 6, wrapperCol: 12 },
});

/** Labels the fake `t` returns (the real console reads them from the locale files). */
export const LABELS: Record<string, string> = {
  'bench.list.title': 'Shops (bench)',
  'bench.list.keyword': 'Keyword',
  'bench.list.keywordPlaceholder': 'Name or ID',
  'bench.list.add': 'Add',
  'bench.form.title': 'Form (bench)',
  ...Object.fromEntries(COLUMNS.map((c) => [`bench.col.${c.key}`, c.title])),
};
