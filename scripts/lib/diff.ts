/**
 * Semantic diff of schemas for reviewers: one line per added, removed or changed schema,
 * e.g. `shop.list v3→v4: column plugin_status added; filter country_code removed; action
 * delete now needs intelligent_text.text.shop.list.delete`. Pure functions over parsed docs.
 */
import { canonicalJson } from '../../server/schemas/canonical.js';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Top-level keys each kind's diff describes itself; any other changed key is reported as "<key> changed". */
const HANDLED = new Set([
  '$schema', 'id', 'kind', 'version', 'schemaVersion', 'description', 'module', 'permission', 'routes', 'title',
  'data', 'filters', 'columns', 'toolbar', 'rowActions', 'batchActions',
  'schema', 'modes', 'load', 'presentation', 'sections', 'actions', 'tabs', 'items',
]);

/** Lines for a whole tree: schemas matched by id; added, removed and changed ones, sorted by id. */
export function diffTrees(before: readonly Doc[], after: readonly Doc[]): string[] {
  const oldById = new Map(before.map((d) => [String(d.id), d]));
  const newById = new Map(after.map((d) => [String(d.id), d]));
  const ids = [...new Set([...oldById.keys(), ...newById.keys()])].sort();
  const lines: string[] = [];
  for (const id of ids) {
    const o = oldById.get(id);
    const n = newById.get(id);
    if (!o && n) lines.push(`${id} v${show(n.version)}: added (${describeNew(n)})`);
    else if (o && !n) lines.push(`${id} v${show(o.version)}: removed`);
    else if (o && n && !same(o, n)) {
      const changes = diffSchema(o, n);
      lines.push(`${id} v${show(o.version)}→v${show(n.version)}: ${changes.length ? changes.join('; ') : 'formatting only'}`);
    }
  }
  return lines;
}

function describeNew(d: Doc): string {
  const parts = [String(d.kind)];
  const routes = Array.isArray(d.routes) ? d.routes : [];
  if (routes.length) parts.push(`routes ${routes.join(', ')}`);
  if (d.permission) parts.push(`needs ${show(d.permission)}`);
  return parts.join(', ');
}

/** The changes of one schema, in reading order. */
export function diffSchema(o: Doc, n: Doc): string[] {
  const out: string[] = [];
  if (o.kind !== n.kind) out.push(`kind ${show(o.kind)} → ${show(n.kind)}`);
  if (o.schemaVersion !== n.schemaVersion) out.push(`language version ${show(o.schemaVersion)} → ${show(n.schemaVersion)}`);
  if (o.module !== n.module) out.push(`module ${show(o.module)} → ${show(n.module)}`);
  out.push(...permissionChange('page', o.permission, n.permission));
  out.push(...listChange('route', strings(o.routes), strings(n.routes)));
  if (!same(o.title, n.title)) out.push(`title ${show(o.title)} → ${show(n.title)}`);
  out.push(...callChange('data source', o.data, n.data));
  out.push(...callChange('load', o.load, n.load));
  out.push(...keyedChange('column', o.columns, n.columns));
  out.push(...formChange('filter', o.filters, n.filters));
  out.push(...formChange('field', o.schema, n.schema));
  for (const list of ['toolbar', 'rowActions', 'batchActions', 'actions'] as const) {
    out.push(...keyedChange(list === 'actions' ? 'action' : `${ACTION_LABEL[list]} action`, o[list], n[list]));
  }
  out.push(...modesChange(o.modes, n.modes));
  if (o.presentation !== n.presentation) out.push(`presentation ${show(o.presentation)} → ${show(n.presentation)}`);
  out.push(...keyedChange('section', o.sections, n.sections));
  out.push(...keyedChange('tab', o.tabs, n.tabs));
  if (o.kind === 'enum') out.push(...enumChange(o.items, n.items));
  for (const k of [...new Set([...Object.keys(o), ...Object.keys(n)])].sort()) {
    if (!HANDLED.has(k) && !same(o[k], n[k])) out.push(`${k} ${k in n ? (k in o ? 'changed' : 'added') : 'removed'}`);
  }
  return out;
}

const ACTION_LABEL = { toolbar: 'toolbar', rowActions: 'row', batchActions: 'batch' } as const;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

function permissionChange(what: string, a: unknown, b: unknown): string[] {
  if (a === b) return [];
  if (b === undefined) return [`${what} no longer needs a permission (was ${show(a)})`];
  return [`${what} now needs ${show(b)}`];
}

function listChange(what: string, a: string[], b: string[]): string[] {
  return [
    ...b.filter((x) => !a.includes(x)).map((x) => `${what} ${x} added`),
    ...a.filter((x) => !b.includes(x)).map((x) => `${what} ${x} removed`),
  ];
}

/** `{ api, params, … }` calls: the API first, then the rest. */
function callChange(what: string, a: unknown, b: unknown): string[] {
  if (same(a, b)) return [];
  if (!isObject(a)) return [`${what} ${show(isObject(b) ? b.api : b)} added`];
  if (!isObject(b)) return [`${what} removed`];
  const out: string[] = [];
  if (a.api !== b.api) out.push(`${what} ${show(a.api)} → ${show(b.api)}`);
  const rest = (d: Doc) => Object.fromEntries(Object.entries(d).filter(([k]) => k !== 'api'));
  if (!same(rest(a), rest(b))) out.push(`${what} ${changedKeys(rest(a), rest(b)).join(', ')} changed`);
  return out;
}

const changedKeys = (a: Doc, b: Doc): string[] =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !same(a[k], b[k])).sort();

/** Lists of elements with a `key` (columns, actions, sections, tabs): added, removed, changed. */
function keyedChange(what: string, a: unknown, b: unknown): string[] {
  const before = keyed(a);
  const after = keyed(b);
  const out: string[] = [];
  for (const [k, el] of after) {
    const old = before.get(k);
    if (!old) out.push(`${what} ${k} added`);
    else if (!same(old, el)) out.push(...elementChange(`${what} ${k}`, old, el));
  }
  for (const k of before.keys()) if (!after.has(k)) out.push(`${what} ${k} removed`);
  const common = (m: Map<string, Doc>, other: Map<string, Doc>) => [...m.keys()].filter((k) => other.has(k));
  if (common(before, after).join() !== common(after, before).join()) out.push(`${what}s reordered`);
  return out;
}

function keyed(v: unknown): Map<string, Doc> {
  const m = new Map<string, Doc>();
  if (Array.isArray(v)) v.forEach((el, i) => isObject(el) && m.set(String(el.key ?? `#${i}`), el));
  return m;
}

/** What changed on one column / action / section / tab, naming permission and API changes. */
function elementChange(name: string, a: Doc, b: Doc): string[] {
  const out = permissionChange(name, a.permission, b.permission);
  if (a.api !== b.api) out.push(b.api === undefined ? `${name} no longer calls ${show(a.api)}` : `${name} now calls ${show(b.api)}`);
  for (const ref of ['form', 'list', 'schema', 'enum', 'widget', 'type'] as const) {
    if (a[ref] !== b[ref] && !(ref === 'schema' && isObject(a[ref]))) out.push(`${name} ${ref} ${show(a[ref] ?? '-')} → ${show(b[ref] ?? '-')}`);
  }
  const rest = changedKeys(a, b).filter((k) => !['permission', 'api', 'form', 'list', 'schema', 'enum', 'widget', 'type'].includes(k));
  if (a.type === 'descriptions' || b.type === 'descriptions') {
    const idx = rest.indexOf('items');
    if (idx >= 0) {
      rest.splice(idx, 1);
      out.push(...keyedChange(`${name} item`, a.items, b.items));
    }
  }
  if (rest.length) out.push(`${name} ${rest.join(', ')} changed`);
  return out;
}

/** Formily fields by dotted path (through nested `properties` and array `items`). */
export function formFields(schema: unknown): Map<string, Doc> {
  const out = new Map<string, Doc>();
  const walk = (node: unknown, prefix: string) => {
    if (!isObject(node)) return;
    if (isObject(node.properties)) {
      for (const [k, child] of Object.entries(node.properties)) {
        if (!isObject(child)) continue;
        const p = prefix ? `${prefix}.${k}` : k;
        const { properties: _p, items: _i, ...own } = child;
        out.set(p, own);
        walk(child, p);
      }
    }
    if (isObject(node.items)) walk(node.items, `${prefix}[]`);
  };
  walk(schema, '');
  return out;
}

/** Field changes of a Formily object schema; a change outside the fields (root props) is named too. */
function formChange(what: string, a: unknown, b: unknown): string[] {
  if (same(a, b)) return [];
  const out = fieldChange(what, formFields(a), formFields(b));
  const root = (v: unknown) => (isObject(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'properties')) : v);
  if (!same(root(a), root(b))) out.push(`${what === 'field' ? 'form' : 'filter form'} ${isObject(a) && isObject(b) ? changedKeys(root(a) as Doc, root(b) as Doc).join(', ') + ' changed' : isObject(b) ? 'added' : 'removed'}`);
  return out;
}

function fieldChange(what: string, a: Map<string, Doc>, b: Map<string, Doc>): string[] {
  const out: string[] = [];
  for (const [p, f] of b) {
    const old = a.get(p);
    if (!old) out.push(`${what} ${p} added`);
    else if (!same(old, f)) {
      const perm = permissionChange(`${what} ${p}`, old['x-permission'], f['x-permission']);
      const rest = changedKeys(old, f).filter((k) => k !== 'x-permission');
      out.push(...perm);
      if (rest.length) out.push(`${what} ${p} ${rest.join(', ')} changed`);
    }
  }
  for (const p of a.keys()) if (!b.has(p)) out.push(`${what} ${p} removed`);
  return out;
}

function modesChange(a: unknown, b: unknown): string[] {
  const before = isObject(a) ? a : {};
  const after = isObject(b) ? b : {};
  const out: string[] = [];
  for (const m of ['add', 'edit', 'view']) {
    const o = before[m];
    const n = after[m];
    if (same(o, n)) continue;
    if (!isObject(o)) out.push(`mode ${m} added`);
    else if (!isObject(n)) out.push(`mode ${m} removed`);
    else {
      out.push(...permissionChange(`mode ${m}`, o.permission, n.permission));
      if (o.route !== n.route) out.push(`mode ${m} route ${show(o.route ?? '-')} → ${show(n.route ?? '-')}`);
      out.push(...callChange(`mode ${m} submit`, o.submit, n.submit));
      out.push(...callChange(`mode ${m} load`, o.load, n.load));
      const rest = changedKeys(o, n).filter((k) => !['permission', 'route', 'submit', 'load'].includes(k));
      if (rest.length) out.push(`mode ${m} ${rest.join(', ')} changed`);
    }
  }
  return out;
}

function enumChange(a: unknown, b: unknown): string[] {
  const byValue = (v: unknown) => new Map((Array.isArray(v) ? v : []).filter(isObject).map((i) => [canonicalJson(i.value), i]));
  const before = byValue(a);
  const after = byValue(b);
  const out: string[] = [];
  for (const [v, item] of after) {
    const old = before.get(v);
    if (!old) out.push(`item ${v} added`);
    else if (!same(old, item)) out.push(`item ${v} ${changedKeys(old, item).join(', ')} changed`);
  }
  for (const v of before.keys()) if (!after.has(v)) out.push(`item ${v} removed`);
  return out;
}
