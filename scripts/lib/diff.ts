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
import { arrow, callChange, Changes, COSMETIC_KEYS, listChange, permissionChange, ptr, same, show, strings, type Change, type ChangeClass, type Doc, type SchemaDiff, type SchemaEntry } from './diff-model.js';
import { enumChange, formChange, keyedChange, modesChange } from './diff-elements.js';

export { CLASSES, type Change, type ChangeClass, type SchemaDiff } from './diff-model.js';

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

function describeNew(d: Doc): string {
  const parts = [String(d.kind)];
  const routes = Array.isArray(d.routes) ? d.routes : [];
  if (routes.length) parts.push(`routes ${routes.join(', ')}`);
  if (d.permission) parts.push(`needs ${show(d.permission)}`);
  return parts.join(', ');
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

// ---- renderings ----

const countByClass = (diffs: readonly SchemaDiff[]): Record<ChangeClass, number> => {
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
