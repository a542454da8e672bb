/**
 * The defaults of a list's and a detail page's parts (issue 22): column widths and widgets, a row
 * action's mode and body, a batch request's selection and texts, every action's refresh,
 * permission, `danger` and `primary`. server/schemas/defaults.ts lists every default and
 * applies them.
 */
import { isObject } from './defaults-fields.js';

/** Width in px of a column without `width`: by key, then by widget. */
export const COLUMN_WIDTH: { byKey: Readonly<Record<string, number>>; byWidget: Readonly<Record<string, number>> } = {
  byKey: { id: 80 },
  byWidget: { DateTime: 170 },
};

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

/** The defaults of a page's actions (toolbar, rowActions, batchActions, a detail's actions). */
export function actionDefaults(doc: Record<string, unknown>): void {
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
}

export function columnDefaults(c: Record<string, unknown>): void {
  enumWidget(c);
  if (c.width !== undefined || c.$ref !== undefined) return;
  const w = (typeof c.key === 'string' ? COLUMN_WIDTH.byKey[c.key] : undefined) ?? (typeof c.widget === 'string' ? COLUMN_WIDTH.byWidget[c.widget] : undefined);
  if (w !== undefined) c.width = w;
}
