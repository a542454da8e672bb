/**
 * Semantic diff of schemas for reviewers. Every change is classified:
 *
 *  - **risky**: a permission loosened or removed (a page / action / column / mode / field
 *    `permission` removed, replaced by a broader key such as its parent or module key, or
 *    dropped from a list); a column or form field removed; `required` dropped; an API path
 *    or method changed (data source, load / submit calls, action APIs, remote widget APIs
 *    in props); a version not raised for a changed schema.
 *  - **notable**: anything that changes behaviour without loosening it: fields, columns and
 *    actions added, widgets, validation, defaults, params, conditions, permissions tightened.
 *  - **cosmetic**: texts (titles, labels, i18n keys), widths and layout, ordering, notes.
 *
 * Params, bodies, labels and props are shown old → new. Each change carries the JSON pointer
 * where it sits (in the new document; in the old one for what was removed). Pure functions
 * over parsed docs; the text and Markdown renderings are at the end.
 */
import { canonicalJson, pointerSegment } from '../../server/schemas/canonical.js';

type Doc = Record<string, unknown>;
export type ChangeClass = 'risky' | 'notable' | 'cosmetic';
export const CLASSES: readonly ChangeClass[] = ['risky', 'notable', 'cosmetic'];

export interface Change {
  cls: ChangeClass;
  /** JSON pointer in the new document (the old one for what was removed) */
  pointer: string;
  text: string;
}

/** One schema document and the file it was read from (relative to the project root), when known. */
export interface SchemaEntry {
  doc: Doc;
  file?: string;
}

export interface SchemaDiff {
  id: string;
  file: string | null;
  status: 'added' | 'removed' | 'changed';
  /** the text after the id in the one-line summary: `v3→v4`, `v1` */
  versions: string;
  /** for added schemas: kind, routes, permission */
  summary?: string;
  changes: Change[];
}

const isObject = (v: unknown): v is Doc => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const MAX_SHOWN = 100;
/** A value for `old → new`: `-` when absent, strings bare, the rest as JSON (long values cut). */
export function showValue(v: unknown): string {
  if (v === undefined) return '-';
  const s = typeof v === 'string' ? v : canonicalJson(v);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN - 1)}…` : s;
}
/** `old → new`; two long values that start alike are both shown from a little before where they differ. */
export function arrow(a: unknown, b: unknown): string {
  const [sa, sb] = [a, b].map((v) => (v === undefined ? '-' : typeof v === 'string' ? v : canonicalJson(v)));
  if (sa.length <= MAX_SHOWN && sb.length <= MAX_SHOWN) return `${sa} → ${sb}`;
  let i = 0;
  while (i < sa.length && i < sb.length && sa[i] === sb[i]) i++;
  const from = i > 40 ? i - 20 : 0;
  const cut = (s: string) => showValue(from ? `…${s.slice(from)}` : s);
  return `${cut(sa)} → ${cut(sb)}`;
}
const ptr = (...parts: Array<string | number>) => parts.map((p) => `/${pointerSegment(p)}`).join('');
const API_REF = /^(GET|POST) [A-Za-z0-9_][A-Za-z0-9_./-]*$/;
const isApi = (v: unknown) => typeof v === 'string' && API_REF.test(v);

/** Property names whose change is cosmetic: texts (i18n keys), widths, layout, icons, ordering. */
const COSMETIC_KEYS = new Set([
  'title', 'label', 'description', 'placeholder', 'confirm', 'successMessage', 'emptyText', 'tooltip', 'message',
  'okText', 'cancelText', 'x-content', 'addonBefore', 'addonAfter', 'extra', 'help',
  'width', 'minWidth', 'maxWidth', 'height', 'style', 'className', 'fixed', 'ellipsis', 'align', 'icon', 'color',
  'danger', 'primary', 'size', 'labelCol', 'wrapperCol', 'labelWidth', 'labelAlign', 'labelWrap', 'colon',
  'layout', 'span', 'gridSpan', 'column', 'columns', 'bordered', 'x-index', 'x-decorator-props', '$schema', 'notes',
]);

/** Collects the changes of one schema in reading order. */
class Changes {
  readonly list: Change[] = [];
  add(cls: ChangeClass, pointer: string, text: string) {
    this.list.push({ cls, pointer, text });
  }
  risky(pointer: string, text: string) {
    this.add('risky', pointer, text);
  }
  notable(pointer: string, text: string) {
    this.add('notable', pointer, text);
  }
  cosmetic(pointer: string, text: string) {
    this.add('cosmetic', pointer, text);
  }
}

/** Top-level keys each kind's diff describes itself; any other changed key is reported generically. */
const HANDLED = new Set([
  '$schema', 'id', 'kind', 'version', 'schemaVersion', 'description', 'module', 'permission', 'routes', 'title',
  'data', 'filters', 'columns', 'toolbar', 'rowActions', 'batchActions',
  'schema', 'modes', 'load', 'presentation', 'sections', 'actions', 'tabs', 'items',
]);

/** Diffs of a whole tree: schemas matched by id; added, removed and changed ones, sorted by id. */
export function diffEntries(before: readonly SchemaEntry[], after: readonly SchemaEntry[]): SchemaDiff[] {
  const oldById = new Map(before.map((e) => [String(e.doc.id), e]));
  const newById = new Map(after.map((e) => [String(e.doc.id), e]));
  const ids = [...new Set([...oldById.keys(), ...newById.keys()])].sort();
  const out: SchemaDiff[] = [];
  for (const id of ids) {
    const o = oldById.get(id);
    const n = newById.get(id);
    if (!o && n) {
      out.push({ id, file: n.file ?? null, status: 'added', versions: `v${show(n.doc.version)}`, summary: describeNew(n.doc), changes: [] });
    } else if (o && !n) {
      out.push({ id, file: o.file ?? null, status: 'removed', versions: `v${show(o.doc.version)}`, changes: [] });
    } else if (o && n && !same(o.doc, n.doc)) {
      const changes = diffSchemaChanges(o.doc, n.doc);
      const was = typeof o.doc.version === 'number' ? o.doc.version : 0;
      const now = typeof n.doc.version === 'number' ? n.doc.version : 0;
      if (now <= was) changes.push({ cls: 'risky', pointer: '/version', text: `version not raised (was ${was}, now ${now}; set ${was + 1})` });
      out.push({ id, file: n.file ?? o.file ?? null, status: 'changed', versions: `v${show(o.doc.version)}→v${show(n.doc.version)}`, changes });
    }
  }
  return out;
}

/** The one-line-per-schema text summary of plain documents (no file names). */
export function diffTrees(before: readonly Doc[], after: readonly Doc[]): string[] {
  return formatText(diffEntries(before.map((doc) => ({ doc })), after.map((doc) => ({ doc }))));
}

function describeNew(d: Doc): string {
  const parts = [String(d.kind)];
  const routes = Array.isArray(d.routes) ? d.routes : [];
  if (routes.length) parts.push(`routes ${routes.join(', ')}`);
  if (d.permission) parts.push(`needs ${show(d.permission)}`);
  return parts.join(', ');
}

/** The changes of one schema as texts, in reading order (no class markers). */
export function diffSchema(o: Doc, n: Doc): string[] {
  return diffSchemaChanges(o, n).map((c) => c.text);
}

/** The classified changes of one schema, in reading order (the version rule is applied by diffEntries). */
export function diffSchemaChanges(o: Doc, n: Doc): Change[] {
  const c = new Changes();
  if (o.kind !== n.kind) c.notable('/kind', `kind ${show(o.kind)} → ${show(n.kind)}`);
  if (o.schemaVersion !== n.schemaVersion) c.notable('/schemaVersion', `language version ${show(o.schemaVersion)} → ${show(n.schemaVersion)}`);
  if (o.module !== n.module) c.notable('/module', `module ${show(o.module)} → ${show(n.module)}`);
  permissionChange(c, 'page', '/permission', o.permission, n.permission);
  listChange(c, 'route', '/routes', strings(o.routes), strings(n.routes));
  if (!same(o.title, n.title)) c.cosmetic('/title', `title ${arrow(o.title, n.title)}`);
  if (!same(o.description, n.description)) c.cosmetic('/description', `description ${arrow(o.description, n.description)}`);
  if (!same(o.$schema, n.$schema)) c.cosmetic('/$schema', `$schema ${arrow(o.$schema, n.$schema)}`);
  callChange(c, 'data source', '/data', o.data, n.data);
  callChange(c, 'load', '/load', o.load, n.load);
  keyedChange(c, 'column', '/columns', o.columns, n.columns);
  formChange(c, 'filter', '/filters', o.filters, n.filters);
  formChange(c, 'field', '/schema', o.schema, n.schema);
  for (const list of ['toolbar', 'rowActions', 'batchActions', 'actions'] as const) {
    keyedChange(c, list === 'actions' ? 'action' : `${ACTION_LABEL[list]} action`, `/${list}`, o[list], n[list]);
  }
  modesChange(c, o.modes, n.modes);
  if (o.presentation !== n.presentation) c.notable('/presentation', `presentation ${show(o.presentation)} → ${show(n.presentation)}`);
  keyedChange(c, 'section', '/sections', o.sections, n.sections);
  keyedChange(c, 'tab', '/tabs', o.tabs, n.tabs);
  if (o.kind === 'enum') enumChange(c, o.items, n.items);
  for (const k of [...new Set([...Object.keys(o), ...Object.keys(n)])].sort()) {
    if (HANDLED.has(k) || same(o[k], n[k])) continue;
    const what = k in n ? (k in o ? 'changed' : 'added') : 'removed';
    c.add(COSMETIC_KEYS.has(k) ? 'cosmetic' : 'notable', ptr(k), `${k} ${what}${what === 'changed' ? `: ${arrow(o[k], n[k])}` : ''}`);
  }
  return c.list;
}

const ACTION_LABEL = { toolbar: 'toolbar', rowActions: 'row', batchActions: 'batch' } as const;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** `b` is a broader key than `a`: its parent, an ancestor or the module key (keys nest by dots). */
export const broaderKey = (a: string, b: string): boolean => a !== b && a.startsWith(`${b}.`);

/**
 * A permission (a key, or a list of keys) on `what`: removed, broadened or dropped from a list is
 * risky; added, narrowed or replaced by an unrelated key is notable (that the new key is right is
 * for the reviewer to judge).
 */
function permissionChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
  if (same(a, b)) return;
  if (Array.isArray(a) || Array.isArray(b)) {
    const before = strings(Array.isArray(a) ? a : a === undefined ? [] : [a]);
    const after = strings(Array.isArray(b) ? b : b === undefined ? [] : [b]);
    for (const k of after.filter((x) => !before.includes(x))) c.notable(pointer, `${what} permission ${k} added`);
    for (const k of before.filter((x) => !after.includes(x))) c.risky(pointer, `${what} permission ${k} dropped`);
    return;
  }
  if (b === undefined || b === null || b === '') c.risky(pointer, `${what} no longer needs a permission (was ${show(a)})`);
  else if (a === undefined || a === null || a === '') c.notable(pointer, `${what} now needs ${show(b)}`);
  else if (broaderKey(String(a), String(b))) c.risky(pointer, `${what} permission loosened: ${show(a)} → ${show(b)} (a broader key)`);
  else c.notable(pointer, `${what} now needs ${show(b)} (was ${show(a)})`);
}

function listChange(c: Changes, what: string, pointer: string, a: string[], b: string[]) {
  b.forEach((x, i) => !a.includes(x) && c.notable(`${pointer}/${i}`, `${what} ${x} added`));
  a.forEach((x, i) => !b.includes(x) && c.notable(`${pointer}/${i}`, `${what} ${x} removed`));
}

/** An API reference changed (path or method): always risky. */
function apiChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
  if (a === b) return;
  if (b === undefined) c.risky(pointer, `${what} no longer calls ${show(a)}`);
  else if (a === undefined) c.notable(pointer, `${what} now calls ${show(b)}`);
  else {
    const [ma, pa] = String(a).split(' ');
    const [mb, pb] = String(b).split(' ');
    const how = ma !== mb && pa === pb ? 'method' : ma === mb ? 'path' : 'method and path';
    c.risky(pointer, `${what} ${show(a)} → ${show(b)} (API ${how} changed)`);
  }
}

/** A mapping (params, body, props): one change per key, old → new. */
function mapChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown, classify: (key: string, a: unknown, b: unknown) => ChangeClass) {
  if (same(a, b)) return;
  if (!isObject(a) || !isObject(b)) {
    const ca = isObject(a) ? a : {};
    const cb = isObject(b) ? b : {};
    if (!isObject(a) && a !== undefined) return c.notable(pointer, `${what} ${arrow(a, b)}`);
    if (!isObject(b) && b !== undefined) return c.notable(pointer, `${what} ${arrow(a, b)}`);
    return mapChange(c, what, pointer, ca, cb, classify);
  }
  for (const k of changedKeys(a, b)) {
    // an API that was called is changed or gone: risky; one that is new: notable
    const cls = isApi(a[k]) ? 'risky' : isApi(b[k]) ? 'notable' : classify(k, a[k], b[k]);
    const note = isApi(a[k]) ? ' (API changed)' : isApi(b[k]) ? ' (new API)' : '';
    c.add(cls, `${pointer}/${pointerSegment(k)}`, `${what} ${k} ${arrow(a[k], b[k])}${note}`);
  }
}

const propClass = (key: string): ChangeClass => (COSMETIC_KEYS.has(key) ? 'cosmetic' : 'notable');

/** `{ api, params, body, … }` calls: the API first (risky when it changes), then the rest old → new. */
function callChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
  if (same(a, b)) return;
  if (!isObject(a)) {
    c.notable(pointer, `${what} ${show(isObject(b) ? b.api : b)} added`);
    return;
  }
  if (!isObject(b)) {
    c.risky(pointer, `${what} removed (was ${show(a.api)})`);
    return;
  }
  apiChange(c, what, `${pointer}/api`, a.api, b.api);
  for (const k of changedKeys(a, b)) {
    if (k === 'api') continue;
    if (isObject(a[k]) || isObject(b[k])) mapChange(c, `${what} ${k}`, `${pointer}/${pointerSegment(k)}`, a[k], b[k], () => 'notable');
    else c.add(propClass(k), `${pointer}/${pointerSegment(k)}`, `${what} ${k} ${arrow(a[k], b[k])}`);
  }
}

const changedKeys = (a: Doc, b: Doc): string[] =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !same(a[k], b[k])).sort();

/** Lists of elements with a `key` (columns, actions, sections, tabs, detail items): added, removed, changed. */
function keyedChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
  const before = keyed(a);
  const after = keyed(b);
  for (const [k, { el, i }] of after) {
    const old = before.get(k);
    if (!old) c.notable(`${pointer}/${i}`, `${what} ${k} added`);
    else if (!same(old.el, el)) elementChange(c, `${what} ${k}`, `${pointer}/${i}`, old.el, el);
  }
  for (const [k, { el, i }] of before) {
    if (after.has(k)) continue;
    const text = `${what} ${k} removed${el.permission ? ` (it needed ${show(el.permission)})` : ''}`;
    // a column gone hides data from everyone who saw it; a removed button or section only takes something away
    if (what === 'column') c.risky(`${pointer}/${i}`, text);
    else c.notable(`${pointer}/${i}`, text);
  }
  const common = (m: Map<string, unknown>, other: Map<string, unknown>) => [...m.keys()].filter((k) => other.has(k));
  if (common(before, after).join() !== common(after, before).join()) c.cosmetic(pointer, `${what}s reordered`);
}

function keyed(v: unknown): Map<string, { el: Doc; i: number }> {
  const m = new Map<string, { el: Doc; i: number }>();
  if (Array.isArray(v)) v.forEach((el, i) => isObject(el) && m.set(String(el.key ?? `#${i}`), { el, i }));
  return m;
}

/** Keys of a column / action / section / tab that name what it shows or opens (notable when changed). */
const REF_KEYS = ['form', 'list', 'schema', 'enum', 'widget', 'type'] as const;

/** What changed on one column / action / section / tab: permission, API, references, then the rest. */
function elementChange(c: Changes, name: string, pointer: string, a: Doc, b: Doc) {
  permissionChange(c, name, `${pointer}/permission`, a.permission, b.permission);
  apiChange(c, name, `${pointer}/api`, a.api, b.api);
  for (const ref of REF_KEYS) {
    if (a[ref] !== b[ref] && !(ref === 'schema' && isObject(a[ref]))) c.notable(`${pointer}/${ref}`, `${name} ${ref} ${arrow(a[ref], b[ref])}`);
  }
  const skip = new Set<string>(['key', 'permission', 'api', ...REF_KEYS]);
  for (const k of changedKeys(a, b)) {
    if (skip.has(k)) continue;
    const p = `${pointer}/${pointerSegment(k)}`;
    if (k === 'items' && (a.type === 'descriptions' || b.type === 'descriptions')) keyedChange(c, `${name} item`, p, a.items, b.items);
    else if (isObject(a[k]) || isObject(b[k])) mapChange(c, `${name} ${k}`, p, a[k], b[k], (key) => (k === 'props' ? propClass(key) : 'notable'));
    else if (k === 'confirm' && b[k] === undefined) c.notable(p, `${name} no longer asks for confirmation (was ${show(a[k])})`);
    else c.add(propClass(k), p, `${name} ${k} ${arrow(a[k], b[k])}`);
  }
}

interface Field {
  own: Doc;
  pointer: string;
  /** named in its parent's `required` list */
  requiredByParent: boolean;
  order: number;
}

/** Formily fields by dotted path (through nested `properties` and array `items`), with their pointers. */
export function formFields(schema: unknown, base = ''): Map<string, Doc> {
  return new Map([...fieldsOf(schema, base)].map(([k, f]) => [k, f.own]));
}

function fieldsOf(schema: unknown, base: string): Map<string, Field> {
  const out = new Map<string, Field>();
  const walk = (node: unknown, prefix: string, pointer: string) => {
    if (!isObject(node)) return;
    if (isObject(node.properties)) {
      const req = Array.isArray(node.required) ? node.required.map(String) : [];
      Object.entries(node.properties).forEach(([k, child], order) => {
        if (!isObject(child)) return;
        const p = prefix ? `${prefix}.${k}` : k;
        const at = `${pointer}/properties/${pointerSegment(k)}`;
        const { properties: _p, items: _i, ...own } = child;
        if (Array.isArray(own.required)) delete own.required; // a list names children, not this field
        out.set(p, { own, pointer: at, requiredByParent: req.includes(k), order });
        walk(child, p, at);
      });
    }
    if (isObject(node.items)) walk(node.items, `${prefix}[]`, `${pointer}/items`);
  };
  walk(schema, '', base);
  return out;
}

const rules = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const requiredByRule = (v: unknown) => rules(v).some((r) => isObject(r) && r.required === true);
const isRequired = (f: Field) => f.own.required === true || f.requiredByParent || requiredByRule(f.own['x-validator']);

/** Field changes of a Formily object schema; a change outside the fields (root props) is named too. */
function formChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
  if (same(a, b)) return;
  const before = fieldsOf(a, pointer);
  const after = fieldsOf(b, pointer);
  for (const [p, f] of after) {
    const old = before.get(p);
    if (!old) c.notable(f.pointer, `${what} ${p} added${isRequired(f) ? ' (required)' : ''}`);
    else if (!same(old.own, f.own) || isRequired(old) !== isRequired(f)) fieldChange(c, `${what} ${p}`, old, f);
  }
  for (const [p, f] of before) {
    if (after.has(p)) continue;
    // a filter gone narrows what one can search for; a form field gone drops data the form kept
    if (what === 'field') c.risky(f.pointer, `${what} ${p} removed${f.own['x-permission'] ? ` (it needed ${show(f.own['x-permission'])})` : ''}`);
    else c.notable(f.pointer, `${what} ${p} removed`);
  }
  const common = (m: Map<string, Field>, other: Map<string, Field>) => [...m.keys()].filter((k) => other.has(k)).join();
  if (common(before, after) !== common(after, before)) c.cosmetic(`${pointer}/properties`, `${what}s reordered`);
  const root = (v: unknown) => (isObject(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'properties')) : v);
  const form = what === 'field' ? 'form' : 'filter form';
  if (!same(root(a), root(b))) {
    if (!isObject(a)) c.notable(pointer, `${form} added`);
    else if (!isObject(b)) c.notable(pointer, `${form} removed`);
    else {
      const ra = root(a) as Doc;
      const rb = root(b) as Doc;
      for (const k of changedKeys(ra, rb)) {
        if (k === 'required') continue; // reported on each field
        if (k === 'x-component-props') mapChange(c, `${form} props`, `${pointer}/x-component-props`, ra[k], rb[k], propClass);
        else c.notable(`${pointer}/${pointerSegment(k)}`, `${form} ${k} ${arrow(ra[k], rb[k])}`);
      }
    }
  }
}

/** One field: permission, required, API of a remote widget (in its props), widget, validation, default, texts. */
function fieldChange(c: Changes, name: string, old: Field, f: Field) {
  const a = old.own;
  const b = f.own;
  const at = (k: string) => `${f.pointer}/${pointerSegment(k)}`;
  permissionChange(c, name, at('x-permission'), a['x-permission'], b['x-permission']);
  if (isRequired(old) && !isRequired(f)) c.risky(f.requiredByParent || old.requiredByParent ? `${f.pointer}` : at('x-validator'), `${name} no longer required`);
  else if (!isRequired(old) && isRequired(f)) c.notable(f.pointer, `${name} now required`);
  for (const k of changedKeys(a, b)) {
    if (k === 'x-permission' || k === 'required') continue;
    if (k === 'x-component-props' || k === 'x-decorator-props') {
      const cls = k === 'x-decorator-props' ? () => 'cosmetic' as const : propClass;
      mapChange(c, `${name} ${k === 'x-component-props' ? 'props' : 'decorator props'}:`, at(k), a[k], b[k], cls);
    } else if (k === 'x-validator') {
      if (!same(stripRequired(a[k]), stripRequired(b[k]))) c.notable(at(k), `${name} validation ${arrow(stripRequired(a[k]), stripRequired(b[k]))}`);
    } else if (k === 'default') c.notable(at(k), `${name} default ${arrow(a[k], b[k])}`);
    else if (k === 'x-component' || k === 'x-decorator') c.notable(at(k), `${name} widget ${k === 'x-decorator' ? '(decorator) ' : ''}${arrow(a[k], b[k])}`);
    else c.add(propClass(k), at(k), `${name} ${k} ${arrow(a[k], b[k])}`);
  }
}

/** The validator without its `required` rules (reported apart); undefined when nothing is left. */
function stripRequired(v: unknown): unknown {
  const rest = rules(v)
    .map((r) => (isObject(r) ? Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'required')) : r))
    .filter((r) => !(isObject(r) && (Object.keys(r).length === 0 || (Object.keys(r).length === 1 && 'message' in r))));
  return rest.length === 0 ? undefined : rest.length === 1 && !Array.isArray(v) ? rest[0] : rest;
}

function modesChange(c: Changes, a: unknown, b: unknown) {
  const before = isObject(a) ? a : {};
  const after = isObject(b) ? b : {};
  for (const m of ['add', 'edit', 'view']) {
    const o = before[m];
    const n = after[m];
    const p = `/modes/${m}`;
    if (same(o, n)) continue;
    if (!isObject(o)) c.notable(p, `mode ${m} added`);
    else if (!isObject(n)) c.notable(p, `mode ${m} removed`);
    else {
      permissionChange(c, `mode ${m}`, `${p}/permission`, o.permission, n.permission);
      if (o.route !== n.route) c.notable(`${p}/route`, `mode ${m} route ${arrow(o.route, n.route)}`);
      callChange(c, `mode ${m} submit`, `${p}/submit`, o.submit, n.submit);
      callChange(c, `mode ${m} load`, `${p}/load`, o.load, n.load);
      for (const k of changedKeys(o, n)) {
        if (['permission', 'route', 'submit', 'load'].includes(k)) continue;
        c.add(propClass(k), `${p}/${pointerSegment(k)}`, `mode ${m} ${k} ${arrow(o[k], n[k])}`);
      }
    }
  }
}

function enumChange(c: Changes, a: unknown, b: unknown) {
  const byValue = (v: unknown) =>
    new Map((Array.isArray(v) ? v : []).map((item, i) => [item, i] as const).filter(([i]) => isObject(i)).map(([item, i]) => [canonicalJson((item as Doc).value), { item: item as Doc, i }]));
  const before = byValue(a);
  const after = byValue(b);
  for (const [v, { item, i }] of after) {
    const old = before.get(v);
    if (!old) c.notable(`/items/${i}`, `item ${v} added`);
    else if (!same(old.item, item)) {
      for (const k of changedKeys(old.item, item)) {
        const cls = k === 'label' || k === 'color' ? 'cosmetic' : 'notable';
        if (k === 'label' && isObject(old.item.label) && isObject(item.label)) {
          mapChange(c, `item ${v} label`, `/items/${i}/label`, old.item.label, item.label, () => 'cosmetic');
        } else c.add(cls, `/items/${i}/${pointerSegment(k)}`, `item ${v} ${k} ${arrow(old.item[k], item[k])}`);
      }
    }
  }
  for (const [v, { i }] of before) if (!after.has(v)) c.notable(`/items/${i}`, `item ${v} removed`);
  const common = (m: Map<string, unknown>, o: Map<string, unknown>) => [...m.keys()].filter((k) => o.has(k)).join();
  if (common(before, after) !== common(after, before)) c.cosmetic('/items', 'items reordered');
}

// ---- renderings ----

export const countByClass = (diffs: readonly SchemaDiff[]): Record<ChangeClass, number> => {
  const n: Record<ChangeClass, number> = { risky: 0, notable: 0, cosmetic: 0 };
  for (const d of diffs) for (const ch of d.changes) n[ch.cls]++;
  return n;
};

/**
 * One line per schema, changes in reading order: `shop.list v3→v4: column plugin_status added;
 * RISKY column name removed`. Risky changes carry a `RISKY ` prefix.
 */
export function formatText(diffs: readonly SchemaDiff[]): string[] {
  return diffs.map((d) => {
    if (d.status === 'added') return `${d.id} ${d.versions}: added (${d.summary ?? ''})${d.changes.length ? `; ${textOf(d.changes)}` : ''}`;
    if (d.status === 'removed') return `${d.id} ${d.versions}: removed`;
    return `${d.id} ${d.versions}: ${d.changes.length ? textOf(d.changes) : 'formatting only'}`;
  });
}

const textOf = (changes: readonly Change[]) => changes.map((c) => (c.cls === 'risky' ? `RISKY ${c.text}` : c.text)).join('; ');

/**
 * How many changes `--fail-on <cls>` fails on: `risky` counts risky ones (a removed schema is
 * one), `notable` risky and notable ones (an added schema is notable), `cosmetic` any change.
 */
export function failingChanges(diffs: readonly SchemaDiff[], failOn: ChangeClass): number {
  const n = countByClass(diffs);
  const risky = n.risky + diffs.filter((d) => d.status === 'removed').length;
  const notable = n.notable + diffs.filter((d) => d.status === 'added').length;
  return failOn === 'risky' ? risky : failOn === 'notable' ? risky + notable : risky + notable + n.cosmetic;
}

/** `2 risky, 3 notable, 1 cosmetic change(s) in 2 schema(s)` */
export function summaryLine(diffs: readonly SchemaDiff[]): string {
  const n = countByClass(diffs);
  const risky = failingChanges(diffs, 'risky');
  const notable = failingChanges(diffs, 'notable') - risky;
  return `${risky} risky, ${notable} notable, ${n.cosmetic} cosmetic change(s) in ${diffs.length} schema(s)`;
}

const mdCode = (s: string) => `\`${s.replace(/`/g, "'")}\``;
/** Texts as Markdown: only what would change the rendering is escaped (`_` inside words and `[x]` without a link stay). */
const mdText = (s: string) => s.replace(/([\\*<>|`])/g, '\\$1');

/**
 * A Markdown summary for a pull-request comment: risky changes first, then notable ones, then
 * cosmetic ones folded in a `<details>` block; each item names the schema id, file and JSON pointer.
 * Schemas added and removed are listed as notable (a removed schema as risky: its page is gone
 * with its permission checks, and links to it break).
 */
export function formatMarkdown(diffs: readonly SchemaDiff[], against: string): string {
  type Item = { cls: ChangeClass; line: string };
  const items: Item[] = [];
  for (const d of diffs) {
    const where = (pointer: string) => `${mdCode(d.id)} ${d.file ? mdCode(`${d.file}#${pointer}`) : mdCode(`#${pointer}`)}`;
    if (d.status === 'added') items.push({ cls: 'notable', line: `${where('')}: schema added, ${d.versions} (${mdText(d.summary ?? '')})` });
    if (d.status === 'removed') items.push({ cls: 'risky', line: `${where('')}: schema removed (was ${d.versions})` });
    for (const ch of d.changes) items.push({ cls: ch.cls, line: `${where(ch.pointer)}: ${mdText(ch.text)}` });
  }
  const n = { risky: 0, notable: 0, cosmetic: 0 };
  for (const i of items) n[i.cls]++;
  const out = [`### Schema changes since ${mdCode(against)}`, ''];
  if (!items.length) return [...out, 'No schema changes.', ''].join('\n');
  out.push(`**${n.risky} risky**, ${n.notable} notable, ${n.cosmetic} cosmetic in ${diffs.length} schema(s).`, '');
  const list = (cls: ChangeClass) => items.filter((i) => i.cls === cls).map((i) => `- ${i.line}`);
  if (n.risky) out.push('#### Risky', '', ...list('risky'), '');
  if (n.notable) out.push('#### Notable', '', ...list('notable'), '');
  if (n.cosmetic) out.push(`<details><summary>Cosmetic (${n.cosmetic})</summary>`, '', ...list('cosmetic'), '', '</details>', '');
  return out.join('\n');
}
