/**
 * Expansion of a schema file as written into the schema that is validated, checked, hashed and
 * served: the ONE place where fragments (`$ref`) are resolved and the language's defaults filled
 * in. The loader (start-up and dev watch, through validate.ts), `schemas:check`, `schemas:diff`,
 * the version rule and the similarity script all read schemas through here, so what they see is
 * what the browser gets.
 *
 * Fragments. `{ "$ref": "../../fragments/shop.json#/columns" }` (a path relative to the file,
 * then an optional JSON pointer) stands for the value at that pointer of a file under
 * `schemas/fragments/`:
 *  - as an array element whose target is an array, the target's elements are spliced in (column
 *    sets, action sets);
 *  - anywhere else it is replaced by the target; sibling keys of `$ref` are merged over an object
 *    target (deeply for objects; arrays and scalars replace; `null` removes the key), so a field
 *    set under `properties` can be extended or a filter set's one field changed.
 * A fragment file's own `$schema` (the fragment meta-schema, for editors) is dropped when the whole
 * file is referred to. Fragments may refer to fragments (relative to their own file). A missing file, a missing
 * pointer, a target outside `schemas/fragments/` and a cycle are problems with file and pointer.
 *
 * Defaults (applied after fragments): the language's defaults (defaults.ts, docs/schemas.md
 * "Defaults") — widget, type, decorator, clearing and widths of fields, date ranges split into
 * `_from` / `_to` params, column widths by key or widget.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SchemaProblem } from './problems.js';
import { pointerSegment } from './canonical.js';
import { applyDefaults } from './defaults.js';

export { applyDefaults };

/** The folder of `schemas/` that holds fragments (never served on their own). */
export const FRAGMENTS_DIR = 'fragments';

type Json = unknown;
const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Reads a fragment file's text by absolute path; null when it does not exist. */
export type FragmentReader = (abs: string) => string | null;

export const fsFragmentReader: FragmentReader = (abs) => {
  try {
    return readFileSync(abs, 'utf8');
  } catch {
    return null;
  }
};

export interface Expanded {
  doc: Record<string, unknown>;
  problems: SchemaProblem[];
  /** fragment files used (absolute paths): the watch re-expands the file when one changes */
  fragments: string[];
}

export interface ExpandOptions {
  read?: FragmentReader;
  /** apply the defaults (default true) */
  defaults?: boolean;
}

/** Resolves a JSON pointer (RFC 6901) in a value; undefined when a segment is missing. */
export function resolvePointer(value: Json, pointer: string): Json {
  if (pointer === '' || pointer === '/') return pointer === '' ? value : isObject(value) ? value[''] : undefined;
  if (!pointer.startsWith('/')) return undefined;
  let cur: Json = value;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg) || Number(seg) >= cur.length) return undefined;
      cur = cur[Number(seg)];
    } else if (isObject(cur) && Object.hasOwn(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}

/**
 * Expands one document. `absPath` is the file's absolute path (for relative `$ref`s), `file`
 * the path problems show, `schemasDir` the `schemas/` folder.
 */
export function expandDoc(
  doc: Record<string, unknown>,
  file: string,
  absPath: string,
  schemasDir: string,
  opts: ExpandOptions = {},
): Expanded {
  const read = opts.read ?? fsFragmentReader;
  const problems: SchemaProblem[] = [];
  const fragments = new Set<string>();
  const parsed = new Map<string, Json | null>();
  const fragmentsRoot = path.join(schemasDir, FRAGMENTS_DIR);
  const root = path.dirname(schemasDir);
  const show = (abs: string) => path.relative(root, abs).split(path.sep).join('/');

  const loadFragment = (abs: string): Json | null => {
    if (parsed.has(abs)) return parsed.get(abs) ?? null;
    const text = read(abs);
    let value: Json | null = null;
    if (text !== null) {
      try {
        value = JSON.parse(text) as Json;
      } catch (err) {
        problems.push({ file: show(abs), pointer: '', reason: `invalid JSON: ${(err as Error).message}` });
        value = null;
        parsed.set(abs, null);
        return null;
      }
    }
    parsed.set(abs, value);
    return value;
  };

  /** where a value came from, for problems: the file shown and the pointer in it */
  interface At {
    file: string;
    abs: string;
    pointer: string;
  }

  /** Resolves a `$ref` string; returns the expanded target or undefined (problem recorded). */
  const follow = (ref: string, at: At, stack: string[]): { value: Json } | undefined => {
    const [rel, ptr = ''] = ref.split('#');
    const problem = (reason: string) => {
      problems.push({ file: at.file, pointer: `${at.pointer}/$ref`, reason });
      return undefined;
    };
    if (!rel) return problem(`"${ref}": a fragment reference names a file under schemas/${FRAGMENTS_DIR}/ (relative path)`);
    const abs = path.resolve(path.dirname(at.abs), rel);
    if (path.relative(fragmentsRoot, abs).startsWith('..') || !abs.endsWith('.json')) {
      return problem(`"${ref}": fragments live under schemas/${FRAGMENTS_DIR}/ and are .json files`);
    }
    fragments.add(abs);
    const key = `${abs}#${ptr}`;
    if (stack.includes(key)) {
      const chain = [...stack.slice(stack.indexOf(key)), key].map((k) => show(k.split('#')[0]) + '#' + k.split('#')[1]);
      return problem(`"${ref}": fragment reference cycle: ${chain.join(' → ')}`);
    }
    const frag = loadFragment(abs);
    if (frag === null) return problem(`"${ref}": fragment file ${show(abs)} not found`);
    let target = resolvePointer(frag, ptr);
    if (target === undefined) return problem(`"${ref}": no value at pointer "${ptr}" in ${show(abs)}`);
    // a fragment's own `$schema` (the fragment meta-schema, for editors) is not part of what it stands for
    if (ptr === '' && isObject(target) && '$schema' in target) target = Object.fromEntries(Object.entries(target).filter(([k]) => k !== '$schema'));
    return { value: walk(target, { file: show(abs), abs, pointer: ptr }, [...stack, key]) };
  };

  const walk = (value: Json, at: At, stack: string[]): Json => {
    if (Array.isArray(value)) {
      const out: Json[] = [];
      value.forEach((el, i) => {
        const elAt = { ...at, pointer: `${at.pointer}/${i}` };
        if (isObject(el) && typeof el.$ref === 'string' && Object.keys(el).length === 1) {
          const r = follow(el.$ref, elAt, stack);
          if (!r) return;
          if (Array.isArray(r.value)) out.push(...r.value);
          else out.push(r.value);
          return;
        }
        out.push(walk(el, elAt, stack));
      });
      return out;
    }
    if (!isObject(value)) return value;
    if (typeof value.$ref === 'string') {
      const r = follow(value.$ref, at, stack);
      const { $ref: _ref, ...rest } = value;
      const over = walk(rest, at, stack) as Record<string, unknown>;
      if (!r) return over;
      if (!Object.keys(over).length) return r.value;
      if (!isObject(r.value)) {
        problems.push({ file: at.file, pointer: `${at.pointer}/$ref`, reason: `"${value.$ref}": keys beside $ref need an object target` });
        return r.value;
      }
      return merge(r.value, over);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, { ...at, pointer: `${at.pointer}/${pointerSegment(k)}` }, stack);
    return out;
  };

  const expanded = walk(doc, { file, abs: absPath, pointer: '' }, []) as Record<string, unknown>;
  if (opts.defaults !== false) {
    const enumValues = (id: string): unknown[] | undefined => {
      if (!/^[a-z0-9_]+$/.test(id)) return undefined;
      try {
        // readers made for fragments only (a git ref's, the watch's) may not know enum files: then the folder's own
        const file = path.join(schemasDir, 'enums', `${id}.json`);
        const items = (JSON.parse(read(file) ?? fsFragmentReader(file) ?? 'null') as { items?: Array<{ value: unknown }> } | null)?.items;
        return Array.isArray(items) ? items.map((i) => i.value) : undefined;
      } catch {
        return undefined; // the enum check reports it
      }
    };
    applyDefaults(expanded, { file: path.relative(schemasDir, absPath).split(path.sep).join('/'), enumValues });
  }
  return { doc: expanded, problems, fragments: [...fragments].sort() };
}

/** Deep merge: `over` wins; objects merge, anything else replaces; `null` removes the key. */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === null && k !== 'x-decorator') delete out[k];
    else if (isObject(v) && isObject(out[k])) out[k] = merge(out[k] as Record<string, unknown>, v);
    else out[k] = v;
  }
  return out;
}

/**
 * A schema file as served (fragments resolved, defaults filled in), for tests and benches that
 * read schema files directly. Throws on a fragment problem.
 */
export function readExpandedSchema(absPath: string, schemasDir: string): Record<string, unknown> {
  const raw = JSON.parse(readFileSync(absPath, 'utf8')) as Record<string, unknown>;
  const root = path.dirname(schemasDir);
  const r = expandDoc(raw, path.relative(root, absPath).split(path.sep).join('/'), absPath, schemasDir);
  if (r.problems.length) throw new Error(r.problems.map((p) => `${p.file}#${p.pointer}: ${p.reason}`).join('\n'));
  return r.doc;
}
