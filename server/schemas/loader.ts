/**
 * Start-up loading: every JSON under schemas/{pages,forms,enums} is read and checked (read.ts);
 * any problem throws a SchemaLoadError naming file, JSON pointer and reason, so the app refuses
 * to start. Then the store is filled and, in dev, the watch started.
 */
import { TEXT_KEYS } from '../../schemas/meta/src/index.js';
import { SchemaLoadError } from './problems.js';
import { DEFAULT_SCHEMAS_DIR, readSchemas, type ValidationMemo } from './read.js';
import { localesDirFor, setPermissionLocalesDir } from './permission-tree.js';
import { SchemaStore, setSchemaStore } from './store.js';
import { watchSchemas, type SchemaWatcher, type WatchLog } from './watch.js';

export { DEFAULT_SCHEMAS_DIR, listJsonFiles, readSchemas } from './read.js';

export interface LoadOptions {
  /** watch the folder and swap changed files in (dev); default: env SCHEMA_WATCH=1 */
  watch?: boolean;
  log?: WatchLog;
  /** what passed the meta-schema check at an earlier start: not checked again, updated (read.ts) */
  memo?: ValidationMemo;
}

/**
 * Loads and validates every schema, fills the store the schema routes read, and (when asked
 * or SCHEMA_WATCH=1) watches the folder. Throws SchemaLoadError on any problem.
 */
export async function loadSchemas(schemasDir: string = DEFAULT_SCHEMAS_DIR, opts: LoadOptions = {}): Promise<SchemaStore> {
  const { schemas, problems, meta } = await readSchemas(schemasDir, undefined, opts.memo);
  if (problems.length) throw new SchemaLoadError(problems);
  const store = new SchemaStore(schemas, TEXT_KEYS);
  setSchemaStore(store);
  // titles of the menu pages the schemas declare come from the locale files beside them
  setPermissionLocalesDir(localesDirFor(schemasDir));
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
