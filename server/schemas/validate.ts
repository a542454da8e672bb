/**
 * Validation of one schema file, and of a set of files together (ids and routes unique).
 * Shared by the server loader (start-up and dev watch) and `npm run schemas:check`.
 */
import path from 'node:path';
import { SUPPORTED_SCHEMA_VERSIONS } from '../../schemas/meta/src/index.js';
import { contentHash } from './canonical.js';
import { expandDoc, type FragmentReader } from './expand.js';
import type { MetaValidators } from './meta.js';
import type { SchemaProblem } from './problems.js';

/** The folders of `schemas/` that hold documents, each read recursively. */
export const SCHEMA_DIRS = ['pages', 'forms', 'enums'] as const;

export interface ParsedSchema {
  /** relative to the project root, posix separators */
  file: string;
  id: string;
  kind: string;
  version: number;
  schemaVersion: number;
  hash: string;
  module?: string;
  permission?: string;
  /** route patterns: `routes` of a page, `modes.*.route` of a form */
  routes: string[];
  /** the expanded document (fragments resolved, defaults filled in: expand.ts) — what is served */
  doc: Record<string, unknown>;
  /** fragment files the document uses (paths relative to the project root) */
  fragments?: string[];
}

export interface FileResult {
  schema?: ParsedSchema;
  problems: SchemaProblem[];
  /** the id of an invalid file, when it has one (so references to it are not reported twice) */
  brokenId?: string;
  /** fragment files the document uses, also when it is invalid (the watch re-reads it when one changes) */
  fragments?: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/**
 * Parses and validates one file. `file` is the path shown in problems (relative to the project
 * root); `absPath` is used to check that `$schema` points at the right meta file.
 */
export function validateFile(
  text: string,
  file: string,
  absPath: string,
  schemasDir: string,
  meta: MetaValidators,
  read?: FragmentReader,
): FileResult {
  const problem = (pointer: string, reason: string): FileResult => ({ problems: [{ file, pointer, reason }] });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return problem('', `invalid JSON: ${(err as Error).message}`);
  }
  if (!isObject(raw)) return problem('', 'a schema file holds one JSON object');
  // fragments and defaults first: everything after (meta-schema, checks, hash) sees the expanded form
  const expanded = expandDoc(raw, file, absPath, schemasDir, { read });
  const root = path.dirname(schemasDir);
  const fragments = expanded.fragments.map((f) => path.relative(root, f).split(path.sep).join('/'));
  if (expanded.problems.length) {
    return { problems: expanded.problems, brokenId: typeof raw.id === 'string' ? raw.id : undefined, fragments };
  }
  const doc = expanded.doc;
  const result = validateDoc(doc, file, absPath, schemasDir, meta);
  result.fragments = fragments;
  if (result.schema) result.schema.fragments = fragments;
  if (!result.schema && typeof doc.id === 'string') result.brokenId = doc.id;
  return result;
}

function validateDoc(
  doc: Record<string, unknown>,
  file: string,
  absPath: string,
  schemasDir: string,
  meta: MetaValidators,
): FileResult {
  const problem = (pointer: string, reason: string): FileResult => ({ problems: [{ file, pointer, reason }] });
  const inEnums = path.relative(path.join(schemasDir, 'enums'), absPath).split(path.sep)[0] !== '..';
  const kind = doc.kind;
  if (typeof kind !== 'string') return problem('/kind', 'required property is missing (list, form, detail, tabs or enum)');
  if (inEnums !== (kind === 'enum')) {
    return problem('/kind', inEnums ? `files in schemas/enums must be kind "enum", not "${kind}"` : 'enums belong in schemas/enums');
  }
  if (typeof doc.schemaVersion === 'number' && !SUPPORTED_SCHEMA_VERSIONS.includes(doc.schemaVersion)) {
    return problem(
      '/schemaVersion',
      `schemaVersion ${doc.schemaVersion} is not supported (supported: ${SUPPORTED_SCHEMA_VERSIONS.join(', ')})`,
    );
  }
  const problems: SchemaProblem[] = meta.validate(kind, doc).map((i) => ({ file, ...i }));
  if (problems.length) return { problems };

  // things the meta-schema cannot say
  const expectedMeta = path.join(schemasDir, 'meta', `${kind}.schema.json`);
  if (path.resolve(path.dirname(absPath), String(doc.$schema)) !== expectedMeta) {
    const rel = path.relative(path.dirname(absPath), expectedMeta).split(path.sep).join('/');
    problems.push({ file, pointer: '/$schema', reason: `must be "${rel}" (relative path to the meta-schema)` });
  }
  if (kind === 'enum') {
    const base = path.basename(absPath, '.json');
    if (doc.id !== base) problems.push({ file, pointer: '/id', reason: `an enum's id must equal its file name ("${base}")` });
    const seen = new Set<string>();
    (doc.items as Array<{ value: unknown }>).forEach((item, i) => {
      const v = JSON.stringify(item.value);
      if (seen.has(v)) problems.push({ file, pointer: `/items/${i}/value`, reason: `duplicate value ${v}` });
      seen.add(v);
    });
  }
  if (problems.length) return { problems };
  return { schema: toParsed(file, doc), problems };
}

function toParsed(file: string, doc: Record<string, unknown>): ParsedSchema {
  const routes: string[] = [];
  if (Array.isArray(doc.routes)) routes.push(...(doc.routes as string[]));
  if (isObject(doc.modes)) {
    for (const m of Object.values(doc.modes)) if (isObject(m) && typeof m.route === 'string') routes.push(m.route);
  }
  return {
    file,
    id: String(doc.id),
    kind: String(doc.kind),
    version: Number(doc.version),
    schemaVersion: Number(doc.schemaVersion),
    hash: contentHash(doc),
    module: typeof doc.module === 'string' ? doc.module : undefined,
    permission: typeof doc.permission === 'string' ? doc.permission : undefined,
    routes,
    doc,
  };
}

/** Ids unique across all files; routes unique across all pages and forms. */
export function checkUnique(schemas: readonly ParsedSchema[]): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const ids = new Map<string, ParsedSchema>();
  const routes = new Map<string, ParsedSchema>();
  for (const s of schemas) {
    const other = ids.get(s.id);
    if (other) problems.push({ file: s.file, pointer: '/id', reason: `duplicate id "${s.id}" (also in ${other.file})` });
    else ids.set(s.id, s);
    for (const r of new Set(s.routes)) {
      const owner = routes.get(r);
      if (owner) problems.push({ file: s.file, pointer: routePointer(s, r), reason: `duplicate route "${r}" (also in ${owner.file})` });
      else routes.set(r, s);
    }
  }
  return problems;
}

/** JSON pointer of a route inside its document. */
export function routePointer(s: ParsedSchema, route: string): string {
  const routes = s.doc.routes;
  if (Array.isArray(routes) && routes.includes(route)) return `/routes/${routes.indexOf(route)}`;
  const modes = isObject(s.doc.modes) ? s.doc.modes : {};
  for (const [m, spec] of Object.entries(modes)) if (isObject(spec) && spec.route === route) return `/modes/${m}/route`;
  return '';
}
