/**
 * `npm run schemas:tidy` (issue 22, "schemas that say only what differs"): rewrites the page,
 * form and fragment files so they spell out only what differs from the language's defaults
 * (server/schemas/defaults.ts) and from the fragments they use:
 *
 *  1. a filter field that is the shop filter becomes a reference to it (SHOP_FILTER);
 *  2. a date-range filter whose page sends `<name>_from` / `<name>_to` becomes `"type": "range"`;
 *  3. every key whose removal leaves the served schema as it was is removed, innermost first
 *     (a value equal to its default, a key beside `$ref` equal to the fragment's, an object
 *     left empty), trying `x-component` / `x-decorator` before `type` so a text field reads
 *     `{ "type": "string", "title": … }`.
 *
 * Safe: every change is kept only when the expanded schema (what is validated, hashed and
 * served: fragments resolved, defaults filled in) of every page and form it touches is unchanged —
 * for a fragment, every page and form that uses it; a fragment nothing uses is left alone.
 * Object keys compare in any order except the fields under `properties` (their order is the
 * form's). So no `version` needs raising. Idempotent: a second run changes nothing. The header
 * keys (`$schema` … `title`) are never touched; the rest is written back with the schemas'
 * formatting (json-layout.ts, with `reflow`: a value that fits in 110 columns sits on one line,
 * nothing already on one line is split), the header lines as written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expandDoc, FRAGMENTS_DIR, fsFragmentReader } from '../../server/schemas/expand.js';
import { listJsonFiles } from '../../server/schemas/read.js';
import { writeLike } from './json-layout.js';

type Json = unknown;
type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The shared shop filter (a list fragment): file under schemas/, JSON pointer. */
export const SHOP_FILTER = { file: 'fragments/pages/filters.json', pointer: '/filters/properties/shop_id' };

/** Top-level keys tidy never touches (codemods and people read them as written); `kind`, `schemaVersion` and `module` have defaults. */
const HEADER = new Set(['$schema', 'id', 'version', 'routes', 'permission', 'menu', 'title']);
/** Tried first, so the type stays and the widget its default gives goes. */
const FIRST = ['x-component', 'x-decorator'];

/** Canonical text of an expanded schema: keys sorted, except the field order under `properties`. */
export function canonical(v: Json, parent = ''): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x)).join(',')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (parent !== 'properties') keys.sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k], k)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export interface TidyResult {
  /** relative to the project root → new text (only files that changed) */
  changed: Map<string, string>;
  /** per changed file: values (scalar leaves) before and after */
  values: Map<string, { before: number; after: number }>;
}

export const leafCount = (v: Json): number =>
  Array.isArray(v) ? v.reduce<number>((s, x) => s + leafCount(x), 0) || 1 : isObject(v) ? Object.values(v).reduce<number>((s, x) => s + leafCount(x), 0) || 1 : 1;

/** What a pass works on: the files' texts (kept current as files are tidied) and how to expand them. */
interface Tree {
  docFiles: string[];
  fragmentFiles: string[];
  texts: Map<string, string>;
  rel: (abs: string) => string;
  expand: (file: string, doc: Obj) => ReturnType<typeof expandDoc>;
}

/** Tidies the schemas of the project at `root` (files are read, not written: the caller writes). */
export async function tidySchemas(root: string): Promise<TidyResult> {
  const schemasDir = path.join(root, 'schemas');
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  const docFiles = (await Promise.all(['pages', 'forms'].map((d) => listJsonFiles(path.join(schemasDir, d))))).flat().map(rel);
  const fragmentFiles = (await listJsonFiles(path.join(schemasDir, FRAGMENTS_DIR))).map(rel);
  const texts = new Map<string, string>();
  for (const f of [...docFiles, ...fragmentFiles]) texts.set(f, await readFile(path.join(root, f), 'utf8'));
  const read = (abs: string) => texts.get(rel(abs)) ?? fsFragmentReader(abs);
  const expand = (file: string, doc: Obj) => expandDoc(structuredClone(doc), file, path.join(root, file), schemasDir, { read });
  const tree: Tree = { docFiles, fragmentFiles, texts, rel, expand };

  const originals = new Map(texts);
  // a page that comes to use a fragment (the shop filter) makes that fragment tidy-able: passes until nothing changes
  for (let pass = 0; pass < 3 && tidyPass(tree); pass++);
  const result: TidyResult = { changed: new Map(), values: new Map() };
  for (const [file, text] of texts) {
    const source = originals.get(file)!;
    if (text === source) continue;
    result.changed.set(file, text);
    result.values.set(file, { before: leafCount(JSON.parse(source)), after: leafCount(JSON.parse(text)) });
  }
  return result;
}

/** One pass over every file; true when it changed one. */
function tidyPass(tree: Tree): boolean {
  // the served form of every page and form now, and who uses each fragment
  const baseline = new Map<string, string>();
  const users = new Map<string, string[]>();
  for (const f of tree.docFiles) {
    let doc: Obj;
    try {
      doc = JSON.parse(tree.texts.get(f)!) as Obj;
    } catch {
      continue; // schemas:check reports it
    }
    const r = tree.expand(f, doc);
    if (r.problems.length) continue;
    baseline.set(f, canonical(r.doc));
    for (const frag of r.fragments) users.set(tree.rel(frag), [...(users.get(tree.rel(frag)) ?? []), f]);
  }
  let changed = false;
  for (const file of [...tree.fragmentFiles, ...tree.docFiles]) {
    const isFragment = tree.fragmentFiles.includes(file);
    const affected = isFragment ? (users.get(file) ?? []) : baseline.has(file) ? [file] : [];
    if (affected.length && tidyFile(tree, file, isFragment, affected, baseline)) changed = true;
  }
  return changed;
}

/** Tidies one file against the served form of the pages and forms it `affected`; true when its text changed. */
function tidyFile(tree: Tree, file: string, isFragment: boolean, affected: string[], baseline: Map<string, string>): boolean {
  const { texts, expand } = tree;
  const source = texts.get(file)!;
  const doc = JSON.parse(source) as Obj;
  const same = (): boolean => {
    if (isFragment) texts.set(file, JSON.stringify(doc));
    return affected.every((a) => {
      const r = expand(a, a === file ? doc : (JSON.parse(texts.get(a)!) as Obj));
      return !r.problems.length && canonical(r.doc) === baseline.get(a);
    });
  };
  /** sets obj[key] = value (undefined: removes) and keeps it only when nothing served changes */
  const attempt = (obj: Obj, key: string, value: Json): boolean => {
    const had = Object.hasOwn(obj, key);
    const old = obj[key];
    const order = Object.keys(obj);
    if (value === undefined) delete obj[key];
    else obj[key] = value;
    if (same()) return true;
    // put it back where it was
    const entries = order.map((k) => [k, k === key ? old : obj[k]] as const);
    for (const k of Object.keys(obj)) delete obj[k];
    for (const [k, v] of entries) if (k !== key || had) obj[k] = v;
    return false;
  };

  const shopRef = `${path.posix.relative(path.posix.dirname(file), `schemas/${SHOP_FILTER.file}`)}#${SHOP_FILTER.pointer}`;
  for (const props of filterFieldSets(doc)) {
    for (const [name, f] of Object.entries(props)) {
      if (!isObject(f)) continue;
      const fp = f['x-component-props'];
      if (f['x-component'] === 'RemoteSelect' && isObject(fp) && fp.api === 'GET shop-list' && attempt(props, name, { $ref: shopRef })) continue;
      if (f.type === 'array' && f['x-component'] === 'DatePicker.RangePicker') attempt(f, 'type', 'range');
    }
  }
  const skip = (k: string, top: boolean) => top && (isFragment ? k === '$schema' : HEADER.has(k));
  const prune = (v: Json, top: boolean): void => {
    if (Array.isArray(v)) return v.forEach((x) => prune(x, false));
    if (!isObject(v)) return;
    for (const k of Object.keys(v)) if (!skip(k, top)) prune(v[k], false);
    const keys = Object.keys(v).filter((k) => !skip(k, top)).sort((a, b) => rank(a) - rank(b));
    for (const k of keys) if (Object.hasOwn(v, k)) attempt(v, k, undefined);
  };
  prune(doc, true);
  const text = writeLike(source, doc, true);
  texts.set(file, text);
  return text !== source;
}

const rank = (k: string) => (FIRST.includes(k) ? FIRST.indexOf(k) : FIRST.length);

/** The `properties` objects of a document's filters (a page's or a list fragment's). */
function filterFieldSets(doc: Obj): Obj[] {
  const filters = doc.filters;
  return isObject(filters) && isObject(filters.properties) ? [filters.properties] : [];
}
