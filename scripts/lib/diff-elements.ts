/**
 * The schema diff (diff.ts) of elements: keyed lists (columns, actions, sections, tabs), Formily
 * fields (required, widget, validation, remote APIs), form modes and enum items.
 */
import { canonicalJson, pointerSegment } from '../../server/schemas/canonical.js';
import { apiChange, arrow, callChange, changedKeys, Changes, isObject, mapChange, permissionChange, propClass, same, show, type Doc } from './diff-model.js';

/** Lists of elements with a `key` (columns, actions, sections, tabs, detail items): added, removed, changed. */
export function keyedChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
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
export function formChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
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

export function modesChange(c: Changes, a: unknown, b: unknown) {
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

export function enumChange(c: Changes, a: unknown, b: unknown) {
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

