/**
 * The schema language's defaults (issue 22, "schemas that say only what differs"), filled into a
 * page or form after its fragments are resolved (expand.ts), so the checks, the hash and the
 * browser all see the full form while a file says only what differs. docs/schemas.md lists them;
 * the meta-schema descriptions (schemas/meta/src) repeat them for editors; `npm run schemas:tidy`
 * removes every value a file spells out that equals its default.
 *
 * Fields (of `filters` and of a form's `schema`, at any depth under `properties` / `items`):
 *  - `"type": "range"` is a date range: `type: "array"`, `x-component: "DatePicker.RangePicker"`;
 *    in `filters` it is 260 px wide (RANGE_FILTER_WIDTH) and sends `<name>_from` / `<name>_to`
 *    (`{{ filters.<name>[0] }}` / `[1]`) in `data.params`, unless the page names those itself;
 *  - with options (an `x-enum` or an inline `enum`) and no `x-component`: `Select`;
 *  - without `type`, `x-component`, `x-enum`, `enum`, `properties` and `items`: `type: "string"`;
 *  - `type: "string"` without `x-component` (and no `x-enum` / `enum`): `Input`;
 *  - without `type`: the type its widget holds (TYPE_OF_WIDGET: Input → string, NumberPicker →
 *    number, Switch → boolean, DatePicker.RangePicker → array, RemoteSelect → number …), else,
 *    with options (`x-enum` or an inline `enum`), the type of their values when they all have one;
 *  - a `RemoteSelect` of `GET shop-list` (the shop picker) has `params: { env: "all" }` and
 *    `labelKey: "label"` (the session's shop list);
 *  - an `Input.TextArea` without `rows` or `autoSize` has `rows: 2` (the HTML default);
 *  - in `filters`, an `Input` or `Select` clears (`x-component-props.allowClear: true`);
 *  - in `filters`, a widget of FILTER_WIDTH has that width (`x-component-props.style.width`:
 *    RemoteSelect 220, Select 120; `"auto"` for the widget's own);
 *  - `x-decorator: "FormItem"` on a non-void field with a widget, except array containers;
 *    `"x-decorator": null` asks for none.
 * The roots: `filters.type` and a form's `schema.type` are `"object"`.
 * The header: `kind` is the one `$schema` names (`…/meta/list.schema.json` → `list`), `schemaVersion`
 * is 1 (CURRENT_SCHEMA_VERSION) and `module` the folder the file is in (`schemas/pages/<module>/…`,
 * `schemas/forms/<module>/…`).
 * Row actions (a list's `rowActions`, and a detail page's `actions`, whose `record` is the page's):
 * an `openForm` opens mode `edit` (in the toolbar: `add`); a
 * `request` without `body` sends `{ "id": "{{ record.id }}" }`; an `openForm` in mode `edit` or
 * `view` without `params` passes the same (mode `add` passes none). A batch `request` sends the
 * selection as `ids` (`{{ selectedKeys }}`; with `selectAllMatching`, `ids` or the list's `filter`);
 * the standard batch keys (batchStart, batchPause, batchStop, batchDelete) ask `runtime.list.<key>Confirm`
 * and report `runtime.list.batchDone`.
 * Actions (toolbar, rowActions, batchActions, a detail's actions): `openForm`, `request` and `upload`
 * reload the page after success (`refresh: true`) unless they say `false`; an action without a
 * `permission` has the page's (whoever sees the page holds it, so it shows as before; the grant
 * table and the permission-reach check already took the page's key for it); an action keyed
 * `delete` / `batchDelete` is `danger` and the toolbar's `add` is `primary`.
 * Columns (a list's `columns`): without `width`, the `id` column is 80 px wide and a `DateTime`
 * column 170 px (COLUMN_WIDTH); other columns keep taking what is left. A column or detail item
 * with an `enum` and no `widget` is an `EnumTag`; one whose key ends in `_at` a `DateTime`.
 * `refreshWhile.intervalMs` is 2000 (the runtime's default).
 * Forms: `presentation` is `page` when a mode has a `route`, else `modal`; a mode's `title` is the
 * form's `title`.
 */
import { CURRENT_SCHEMA_VERSION } from '../../schemas/meta/src/constants.js';

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Array containers render their own items: no FormItem around them. */
const NO_DECORATOR_COMPONENTS = new Set(['ArrayItems', 'ArrayTable']);

/** The value type a widget holds, for a field that names its widget and no type. */
export const TYPE_OF_WIDGET: Readonly<Record<string, string>> = {
  Input: 'string',
  'Input.TextArea': 'string',
  Password: 'string',
  DatePicker: 'string',
  TimePicker: 'string',
  NumberPicker: 'number',
  Switch: 'boolean',
  'DatePicker.RangePicker': 'array',
  'Checkbox.Group': 'array',
  ArrayItems: 'array',
  ArrayTable: 'array',
  RemoteSelect: 'number',
};

/** The quiet reload interval of `refreshWhile` (src/runtime/controllers/use-refresh-while.ts DEFAULT_REFRESH_MS). */
export const REFRESH_INTERVAL_MS = 2000;

/** The shop picker's call: a RemoteSelect naming this api gets these params and label key. */
export const SHOP_LIST = { api: 'GET shop-list', params: { env: 'all' }, labelKey: 'label' } as const;

/** Filter widgets that clear by default (allowClear). */
export const CLEARING_FILTERS: ReadonlySet<string> = new Set(['Input', 'Select']);

/** Width in px of a filter widget that does not say its own (x-component-props.style.width). */
export const FILTER_WIDTH: Readonly<Record<string, number>> = { RemoteSelect: 220, Select: 120 };

/** Width in px of a `range` filter that does not say its own. */
export const RANGE_FILTER_WIDTH = 260;

/** Width in px of a column without `width`: by key, then by widget. */
export const COLUMN_WIDTH: { byKey: Readonly<Record<string, number>>; byWidget: Readonly<Record<string, number>> } = {
  byKey: { id: 80 },
  byWidget: { DateTime: 170 },
};

/** What the defaults may look up: the file's folder under schemas/, and enum files. */
export interface DefaultsContext {
  /** path of the file relative to schemas/, posix (e.g. `pages/admin_center/roles.json`) */
  file?: string;
  /** the values of an enum file (undefined when there is none) */
  enumValues?: (id: string) => unknown[] | undefined;
}

/** The folders whose first sub-folder names the module of the pages and forms in it. */
const MODULE_FOLDERS = new Set(['pages', 'forms']);

/** The kinds a `$schema` path may name (`…/meta/<kind>.schema.json`). */
const KINDS = new Set(['list', 'form', 'detail', 'tabs', 'enum']);

/** A document's kind: its own `kind`, else the one its `$schema` names (undefined when neither says). */
export function kindOf(doc: Record<string, unknown>): string | undefined {
  if (typeof doc.kind === 'string') return doc.kind;
  const m = typeof doc.$schema === 'string' ? /(?:^|\/)([a-z]+)\.schema\.json$/.exec(doc.$schema) : null;
  return m && KINDS.has(m[1]) ? m[1] : undefined;
}

/** Fills the defaults into a page or form (in place). */
export function applyDefaults(doc: Record<string, unknown>, ctx: DefaultsContext = {}): void {
  const kind = kindOf(doc);
  if (kind !== undefined) doc.kind = kind;
  if (doc.kind === undefined || doc.kind === 'enum') return;
  doc.schemaVersion ??= CURRENT_SCHEMA_VERSION;
  const [top, module, rest] = (ctx.file ?? '').split('/');
  if (MODULE_FOLDERS.has(top) && module && rest !== undefined) doc.module ??= module;
  if (isObject(doc.filters)) {
    doc.filters.type ??= 'object';
    const ranges: string[] = [];
    fieldDefaults(doc.filters, true, ranges, ctx);
    if (ranges.length) splitRanges(doc, ranges);
  }
  if (doc.kind === 'form' && isObject(doc.schema)) {
    doc.schema.type ??= 'object';
    fieldDefaults(doc.schema, false, [], ctx);
  }
  if (doc.kind === 'list' && Array.isArray(doc.columns)) {
    for (const c of doc.columns) if (isObject(c)) columnDefaults(c);
  }
  if (doc.kind === 'list') {
    for (const a of actionsOf(doc.toolbar)) if (a.type === 'openForm') a.mode ??= 'add';
    for (const a of actionsOf(doc.rowActions)) rowActionDefaults(a);
    for (const a of actionsOf(doc.batchActions)) if (a.type === 'request') batchBody(a, doc.selectAllMatching === true);
  }
  for (const list of ACTION_LISTS) {
    for (const a of actionsOf(doc[list])) {
      if (REFRESHING.has(String(a.type))) a.refresh ??= true;
      // whoever sees the page holds its key: an action without its own is as visible as the page
      if (typeof doc.permission === 'string') a.permission ??= doc.permission;
      if (DANGER_KEYS.has(String(a.key))) a.danger ??= true;
      if (list === 'toolbar' && a.key === 'add') a.primary ??= true;
    }
  }
  // a detail page's actions act on its record as a row action on its row
  if (doc.kind === 'detail') for (const a of actionsOf(doc.actions)) rowActionDefaults(a);
  if (doc.kind === 'detail' && Array.isArray(doc.sections)) {
    for (const sec of doc.sections) if (isObject(sec) && Array.isArray(sec.items)) for (const it of sec.items) if (isObject(it)) enumWidget(it);
  }
  if (isObject(doc.refreshWhile)) doc.refreshWhile.intervalMs ??= REFRESH_INTERVAL_MS;
  if (doc.kind === 'form' && isObject(doc.modes)) {
    for (const m of Object.values(doc.modes)) if (isObject(m) && doc.title !== undefined) m.title ??= doc.title;
  }
  if (doc.kind === 'form' && doc.presentation === undefined) {
    doc.presentation = Object.values(isObject(doc.modes) ? doc.modes : {}).some((m) => isObject(m) && m.route !== undefined) ? 'page' : 'modal';
  }
}

/** The action lists of a page. */
const ACTION_LISTS = ['toolbar', 'rowActions', 'batchActions', 'actions'];
/** Action keys that destroy: their buttons are red (`danger`) unless they say `false`. */
const DANGER_KEYS = new Set(['delete', 'batchDelete']);
/** Actions that reload the page after they succeed unless they say `"refresh": false`. */
const REFRESHING = new Set(['openForm', 'request', 'upload']);

/** A column or detail item with an enum and no widget shows it as an EnumTag; a time (key `…_at`) as a DateTime. */
function enumWidget(c: Record<string, unknown>): void {
  if (c.widget !== undefined) return;
  if (c.enum !== undefined) c.widget = 'EnumTag';
  else if (typeof c.key === 'string' && TIME_KEY.test(c.key)) c.widget = 'DateTime';
}

/** Keys of times (`created_at`, `finished_at` …): shown as DateTime unless the column says otherwise. */
const TIME_KEY = /_at$/;

/** A row's own action names the row: a request sends its id, a form opened to edit or view gets it. */
const ROW_ID = { id: '{{ record.id }}' };

const actionsOf = (list: unknown): Array<Record<string, unknown>> => (Array.isArray(list) ? list.filter(isObject) : []);

/** Batch actions the runtime has texts for (runtime.list.<key>, …Confirm, batchDone). */
const STANDARD_BATCH = new Set(['batchStart', 'batchPause', 'batchStop', 'batchDelete']);

/** The selection a batch request sends: the selected rows' keys, or the list's filter when all matching rows are selected. */
function batchBody(a: Record<string, unknown>, allMatching: boolean): void {
  if (STANDARD_BATCH.has(String(a.key))) {
    a.confirm ??= `runtime.list.${String(a.key)}Confirm`;
    a.successMessage ??= 'runtime.list.batchDone';
  }
  const body = isObject(a.body) ? a.body : {};
  if (allMatching) {
    body.ids ??= '{{ allMatching ? undefined : selectedKeys }}';
    body.filter ??= '{{ allMatching ? matchFilter : undefined }}';
  } else body.ids ??= '{{ selectedKeys }}';
  a.body = body;
}

function rowActionDefaults(a: Record<string, unknown>): void {
  if (a.type === 'openForm') a.mode ??= 'edit';
  if (a.type === 'request' && a.body === undefined) a.body = { ...ROW_ID };
  if (a.type === 'openForm' && a.mode !== 'add' && a.params === undefined) a.params = { ...ROW_ID };
}

function fieldDefaults(node: Record<string, unknown>, filter: boolean, ranges: string[], ctx: DefaultsContext): void {
  if (isObject(node.properties)) {
    for (const [name, f] of Object.entries(node.properties)) {
      if (!isObject(f)) continue;
      fieldDefault(f, filter, ctx);
      if (f.range === true) {
        delete f.range;
        ranges.push(name);
      }
      fieldDefaults(f, filter, ranges, ctx);
    }
  }
  if (isObject(node.items)) fieldDefaults(node.items, filter, ranges, ctx);
}

function fieldDefault(f: Record<string, unknown>, filter: boolean, ctx: DefaultsContext): void {
  if (f.type === 'range') {
    f.type = 'array';
    f['x-component'] ??= 'DatePicker.RangePicker';
    if (filter) {
      // marks the field for splitRanges (removed there)
      f.range = true;
      const props = isObject(f['x-component-props']) ? f['x-component-props'] : {};
      const style = isObject(props.style) ? props.style : {};
      style.width ??= RANGE_FILTER_WIDTH;
      f['x-component-props'] = { ...props, style };
    }
  }
  const hasOptions = f['x-enum'] !== undefined || f.enum !== undefined;
  if (hasOptions && f['x-component'] === undefined) f['x-component'] = 'Select';
  if (f.type === undefined && f['x-component'] === undefined && !hasOptions && f.properties === undefined && f.items === undefined) {
    f.type = 'string';
  }
  if (f.type === 'string' && f['x-component'] === undefined && !hasOptions) f['x-component'] = 'Input';
  const comp = f['x-component'];
  if (f.type === undefined && typeof comp === 'string' && TYPE_OF_WIDGET[comp]) f.type = TYPE_OF_WIDGET[comp];
  if (comp === 'RemoteSelect' && isObject(f['x-component-props']) && f['x-component-props'].api === SHOP_LIST.api) {
    // the shop picker: every one reads the session's shop list (src/runtime/session-data.ts)
    f['x-component-props'].params ??= { ...SHOP_LIST.params };
    f['x-component-props'].labelKey ??= SHOP_LIST.labelKey;
  }
  if (comp === 'Input.TextArea') {
    // a textarea's own default height (HTML rows 2), said so the served schema shows it
    const props = isObject(f['x-component-props']) ? f['x-component-props'] : {};
    if (props.autoSize === undefined) props.rows ??= 2;
    f['x-component-props'] = props;
  }
  if (f.type === undefined && hasOptions) {
    const values = Array.isArray(f.enum) ? f.enum.map((o) => (isObject(o) ? o.value : o)) : ctx.enumValues?.(String(f['x-enum']));
    const type = typeOfValues(values);
    if (type) f.type = type;
  }
  if (filter && typeof comp === 'string') {
    const clears = CLEARING_FILTERS.has(comp);
    const width = FILTER_WIDTH[comp];
    if (clears || width !== undefined) {
      const props = isObject(f['x-component-props']) ? f['x-component-props'] : {};
      if (clears) props.allowClear ??= true;
      if (width !== undefined) {
        const style = isObject(props.style) ? props.style : {};
        style.width ??= width;
        props.style = style;
      }
      f['x-component-props'] = props;
    }
  }
  if (typeof comp === 'string' && f.type !== 'void' && !NO_DECORATOR_COMPONENTS.has(comp) && !('x-decorator' in f)) {
    f['x-decorator'] = 'FormItem';
  }
  if (f['x-decorator'] === null) delete f['x-decorator'];
}

/** `number`, `string` or `boolean` when every value is one, else undefined (the field says its type). */
function typeOfValues(values: unknown[] | undefined): string | undefined {
  const types = new Set((values ?? []).map((v) => typeof v));
  const [t] = types;
  return types.size === 1 && (t === 'number' || t === 'string' || t === 'boolean') ? t : undefined;
}

/** A range filter `x` sends `x_from` / `x_to` (the page's own params of those names win). */
function splitRanges(doc: Record<string, unknown>, names: readonly string[]): void {
  if (!isObject(doc.data)) return;
  const params = isObject(doc.data.params) ? doc.data.params : {};
  for (const n of names) {
    params[`${n}_from`] ??= `{{ filters.${n}[0] }}`;
    params[`${n}_to`] ??= `{{ filters.${n}[1] }}`;
  }
  doc.data.params = params;
}

function columnDefaults(c: Record<string, unknown>): void {
  enumWidget(c);
  if (c.width !== undefined || c.$ref !== undefined) return;
  const w = (typeof c.key === 'string' ? COLUMN_WIDTH.byKey[c.key] : undefined) ?? (typeof c.widget === 'string' ? COLUMN_WIDTH.byWidget[c.widget] : undefined);
  if (w !== undefined) c.width = w;
}
