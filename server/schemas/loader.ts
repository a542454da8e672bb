/**
 * Start-up loading: every JSON under schemas/{pages,forms,enums} (recursively) is validated
 * against its kind's meta-schema and checked (schemaVersion supported, ids and routes
 * unique). Any problem throws a SchemaLoadError naming file, JSON pointer and reason, so
 * the app refuses to start.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEXT_KEYS } from '../../schemas/meta/src/index.js';
import { loadMetaValidators, type MetaValidators, type Precompiled } from './meta.js';
import { SchemaLoadError, sortProblems, type SchemaProblem } from './problems.js';
import { SchemaStore, setSchemaStore } from './store.js';
import { SCHEMA_DIRS, checkUnique, validateFile, type ParsedSchema } from './validate.js';
import { watchSchemas, type SchemaWatcher, type WatchLog } from './watch.js';

/** The project's `schemas/` folder. */
export const DEFAULT_SCHEMAS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas');

export interface LoadOptions {
  /** watch the folder and swap changed files in (dev); default: env SCHEMA_WATCH=1 */
  watch?: boolean;
  log?: WatchLog;
}

export interface LoadedFiles {
  schemas: ParsedSchema[];
  /** ids of files that exist but are invalid */
  brokenIds: Set<string>;
  problems: SchemaProblem[];
  meta: MetaValidators;
}

/** Every `.json` under a folder, recursively, sorted (absolute paths). */
export async function listJsonFiles(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.endsWith('.json'))
    .map((e) => path.join(dir, e))
    .sort();
}

/** A path as problems show it: relative to the project root (parent of `schemas/`), posix separators. */
export const displayPath = (schemasDir: string, abs: string): string =>
  path.relative(path.dirname(schemasDir), abs).split(path.sep).join('/');

/**
 * The standalone validators `npm run schemas:meta` writes for the browser (CSP without
 * unsafe-eval); on the server they spare compiling the meta-schemas at start.
 */
async function precompiledValidators(): Promise<Precompiled> {
  try {
    const m = await import('../../src/runtime/generated/validators.js');
    return { list: m.validate_list, form: m.validate_form, detail: m.validate_detail, tabs: m.validate_tabs, enum: m.validate_enum };
  } catch {
    return {};
  }
}

/** Reads and validates every file; returns the valid schemas and all problems (does not throw). */
export async function readSchemas(schemasDir: string, meta?: MetaValidators): Promise<LoadedFiles> {
  const validators = meta ?? (await loadMetaValidators(path.join(schemasDir, 'meta'), await precompiledValidators()));
  const files = (await Promise.all(SCHEMA_DIRS.map((d) => listJsonFiles(path.join(schemasDir, d))))).flat();
  const texts = await Promise.all(files.map((f) => readFile(f, 'utf8')));
  const schemas: ParsedSchema[] = [];
  const problems: SchemaProblem[] = [];
  const brokenIds = new Set<string>();
  files.forEach((abs, i) => {
    const r = validateFile(texts[i], displayPath(schemasDir, abs), abs, schemasDir, validators);
    problems.push(...r.problems);
    if (r.schema) schemas.push(r.schema);
    if (r.brokenId) brokenIds.add(r.brokenId);
  });
  problems.push(...checkUnique(schemas));
  return { schemas, brokenIds, problems: sortProblems(problems), meta: validators };
}

/**
 * Loads and validates every schema, fills the store the schema routes read, and (when asked
 * or SCHEMA_WATCH=1) watches the folder. Throws SchemaLoadError on any problem.
 */
export async function loadSchemas(schemasDir: string = DEFAULT_SCHEMAS_DIR, opts: LoadOptions = {}): Promise<SchemaStore> {
  const { schemas, problems, meta } = await readSchemas(schemasDir);
  if (problems.length) throw new SchemaLoadError(problems);
  const store = new SchemaStore(schemas, TEXT_KEYS);
  setSchemaStore(store);
  if (opts.watch ?? process.env.SCHEMA_WATCH === '1') {
    activeWatcher?.close();
    activeWatcher = watchSchemas(store, schemasDir, meta, opts.log);
  }
  return store;
}

let activeWatcher: SchemaWatcher | null = null;

/** Stops the dev watch (the app calls it on close; harmless when not watching). */
export function stopSchemaWatch(): void {
  activeWatcher?.close();
  activeWatcher = null;
}
