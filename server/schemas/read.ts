/**
 * Reading the schema files: every JSON under schemas/{pages,forms,enums} (recursively) is
 * validated against its kind's meta-schema and checked (schemaVersion supported, ids and routes
 * unique); problems are returned, not thrown. loader.ts (start-up, dev watch) and the
 * `schemas:check` CLI (scripts/lib/check.ts) both read through here. It imports neither the
 * loader nor the watch, so the watch may run the check's functions without an import circle.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';
import { loadMetaValidators, type MetaValidators, type Precompiled } from './meta.js';
import { sortProblems, type SchemaProblem } from './problems.js';
import { SCHEMA_DIRS, checkUnique, validateFile, type ParsedSchema } from './validate.js';

/** The project's `schemas/` folder. */
/** `schemas/` beside the code, or SCHEMAS_DIR (a copy with its locale files at `<SCHEMAS_DIR>/../src/locales`: tests). */
export const DEFAULT_SCHEMAS_DIR = process.env.SCHEMAS_DIR
  ? path.resolve(process.env.SCHEMAS_DIR)
  : path.join(PROJECT_ROOT, 'schemas');

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
    const m = await import('../../src/contract/generated/validators.js');
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

