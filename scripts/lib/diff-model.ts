/**
 * The parts of the semantic schema diff (diff.ts): the change classes, values shown old → new,
 * and how a permission, a list, an API reference, a mapping and a call changed.
 */
import { canonicalJson, pointerSegment } from '../../server/schemas/canonical.js';

export type Doc = Record<string, unknown>;
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

export const isObject = (v: unknown): v is Doc => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
export const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
export const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const MAX_SHOWN = 100;
/** A value for `old → new`: `-` when absent, strings bare, the rest as JSON (long values cut). */
function showValue(v: unknown): string {
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
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
export const changedKeys = (a: Doc, b: Doc): string[] =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !same(a[k], b[k])).sort();
export const ptr = (...parts: Array<string | number>) => parts.map((p) => `/${pointerSegment(p)}`).join('');
const API_REF = /^(GET|POST) [A-Za-z0-9_][A-Za-z0-9_./-]*$/;
const isApi = (v: unknown) => typeof v === 'string' && API_REF.test(v);

/** Property names whose change is cosmetic: texts (i18n keys), widths, layout, icons, ordering. */
export const COSMETIC_KEYS = new Set([
  'title', 'label', 'description', 'placeholder', 'confirm', 'successMessage', 'emptyText', 'tooltip', 'message',
  'okText', 'cancelText', 'x-content', 'addonBefore', 'addonAfter', 'extra', 'help',
  'width', 'minWidth', 'maxWidth', 'height', 'style', 'className', 'fixed', 'ellipsis', 'align', 'icon', 'color',
  'danger', 'primary', 'size', 'labelCol', 'wrapperCol', 'labelWidth', 'labelAlign', 'labelWrap', 'colon',
  'layout', 'span', 'gridSpan', 'column', 'columns', 'bordered', 'x-index', 'x-decorator-props', '$schema', 'notes',
]);

/** Collects the changes of one schema in reading order. */
export class Changes {
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

/** `b` is a broader key than `a`: its parent, an ancestor or the module key (keys nest by dots). */
const broaderKey = (a: string, b: string): boolean => a !== b && a.startsWith(`${b}.`);

/**
 * A permission (a key, or a list of keys) on `what`: removed, broadened or dropped from a list is
 * risky; added, narrowed or replaced by an unrelated key is notable (that the new key is right is
 * for the reviewer to judge).
 */
export function permissionChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
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

export function listChange(c: Changes, what: string, pointer: string, a: string[], b: string[]) {
  b.forEach((x, i) => !a.includes(x) && c.notable(`${pointer}/${i}`, `${what} ${x} added`));
  a.forEach((x, i) => !b.includes(x) && c.notable(`${pointer}/${i}`, `${what} ${x} removed`));
}

/** An API reference changed (path or method): always risky. */
export function apiChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
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
export function mapChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown, classify: (key: string, a: unknown, b: unknown) => ChangeClass) {
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

export const propClass = (key: string): ChangeClass => (COSMETIC_KEYS.has(key) ? 'cosmetic' : 'notable');

/** `{ api, params, body, … }` calls: the API first (risky when it changes), then the rest old → new. */
export function callChange(c: Changes, what: string, pointer: string, a: unknown, b: unknown) {
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

