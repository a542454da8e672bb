/**
 * Reading the schema files: every JSON under schemas/{pages,forms,enums} (recursively) is
 * validated against its kind's meta-schema and checked (schemaVersion supported, ids and routes
 * unique); problems are returned, not thrown. loader.ts (start-up, dev watch) and the
 * `schemas:check` CLI (scripts/lib/check.ts) both read through here. It imports neither the
 * loader nor the watch, so the watch may run the check's functions without an import circle.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SCHEMA_CHECK } from '../../src/contract/schema-check.js';
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

/**
 * What passed the meta-schema check at an earlier start, so an unchanged document is not checked
 * again (the server keeps it in the database: server/app.ts). `validators` names the check (the
 * generated validators' fingerprint and the meta-schema files); `keys` are the documents that
 * passed it, each a hash of its kind and its expanded content. readSchemas skips the check of a
 * document whose key is listed under the same `validators`, and rewrites both fields with what
 * passed this time (`changed` tells whether they differ from what was given).
 */
export interface ValidationMemo {
  validators: string;
  keys: string[];
  changed?: boolean;
  /** set by readSchemas: how many documents went through the check this time (the rest were known) */
  checked?: number;
}

/** The fingerprint of the meta-schema check: the generated validators' and the meta files' text. */
async function validatorsKey(schemasDir: string): Promise<string> {
  const h = createHash('sha256').update(SCHEMA_CHECK);
  const dir = path.join(schemasDir, 'meta');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  for (const n of names) h.update('\0' + n + '\0').update(await readFile(path.join(dir, n)));
  return h.digest('hex').slice(0, 32);
}

const docKey = (kind: string, doc: unknown): string =>
  createHash('sha256').update(kind).update('\0').update(JSON.stringify(doc)).digest('hex').slice(0, 32);

/**
 * The validators, remembering what passed: a document whose key the memo lists is not checked
 * again (the check depends only on the kind, the expanded document and the validators, and the
 * key covers all three), every other one is checked as before.
 */
function remembering(meta: MetaValidators, known: ReadonlySet<string>, passed: Set<string>, memo: ValidationMemo): MetaValidators {
  memo.checked = 0;
  return {
    kinds: meta.kinds,
    validate(kind, doc) {
      const key = docKey(kind, doc);
      if (known.has(key) && meta.kinds.has(kind)) {
        passed.add(key);
        return [];
      }
      memo.checked = (memo.checked ?? 0) + 1;
      const issues = meta.validate(kind, doc);
      if (!issues.length) passed.add(key);
      return issues;
    },
  };
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

/**
 * Reads and validates every file; returns the valid schemas and all problems (does not throw).
 * With a `memo` (and the default validators), documents that passed the meta-schema check before are not checked again, and
 * the memo is updated (see ValidationMemo).
 */
export async function readSchemas(schemasDir: string, meta?: MetaValidators, memo?: ValidationMemo): Promise<LoadedFiles> {
  const loaded = meta ?? (await loadMetaValidators(path.join(schemasDir, 'meta'), await precompiledValidators()));
  const passed = new Set<string>();
  let validators = loaded;
  let memoKey = '';
  if (memo && !meta) {
    memoKey = await validatorsKey(schemasDir);
    validators = remembering(loaded, new Set(memo.validators === memoKey ? memo.keys : []), passed, memo);
  }
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
  if (memo && !meta) {
    const keys = [...passed].sort();
    memo.changed = memo.validators !== memoKey || keys.join() !== [...memo.keys].sort().join();
    memo.validators = memoKey;
    memo.keys = keys;
  }
  return { schemas, brokenIds, problems: sortProblems(problems), meta: loaded };
}

