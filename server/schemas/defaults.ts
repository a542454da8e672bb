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
 * Where they live: the fields' in defaults-fields.ts, the columns' and actions' in
 * defaults-pages.ts, the header's and the forms' here.
 */
import { CURRENT_SCHEMA_VERSION } from '../../schemas/meta/src/constants.js';
import { fieldDefaults, isObject, splitRanges, type DefaultsContext } from './defaults-fields.js';
import { actionDefaults, columnDefaults } from './defaults-pages.js';

/** The quiet reload interval of `refreshWhile` (src/runtime/controllers/use-refresh-while.ts DEFAULT_REFRESH_MS). */
export const REFRESH_INTERVAL_MS = 2000;

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
  actionDefaults(doc);
  if (isObject(doc.refreshWhile)) doc.refreshWhile.intervalMs ??= REFRESH_INTERVAL_MS;
  if (doc.kind === 'form' && isObject(doc.modes)) {
    for (const m of Object.values(doc.modes)) if (isObject(m) && doc.title !== undefined) m.title ??= doc.title;
  }
  if (doc.kind === 'form' && doc.presentation === undefined) {
    doc.presentation = Object.values(isObject(doc.modes) ? doc.modes : {}).some((m) => isObject(m) && m.route !== undefined) ? 'page' : 'modal';
  }
}

