/**
 * Dev watch (SCHEMA_WATCH=1). A changed schema file is validated against its meta-schema and
 * then, together with every other served schema (the current store with the changed file
 * swapped in), put through the checks of `npm run schemas:check` (./watch-checks.ts: widgets,
 * enums, i18n keys, APIs, sortable columns, permission keys, schema ids, manifest routes, menu
 * pages, unique ids and routes; not the git version rule). An edit that adds a problem is
 * refused: the last good version stays served, each problem is logged as
 * `file#/json/pointer: reason`, and the store's `watch` status (GET schema/watch-status, shown by
 * the client's dev inspector) lists it until a later edit fixes it. A refused file is tried
 * again whenever another schema or a locale file (src/locales) changes, so adding the missing
 * form or i18n key lets it in. A deleted file is dropped; what still refers to it shows as a
 * standing problem. The client polls `schema/list` in dev mode and reloads a page whose hash
 * changed. The folders are watched one by one (./tree-watch.ts), so a save renamed over the old
 * file (editors, `sed -i`), a folder deleted and made again or a branch switch never stop it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FRAGMENTS_DIR } from './expand.js';
import type { MetaValidators } from './meta.js';
import { formatProblem, sortProblems, type SchemaProblem } from './problems.js';
import type { SchemaStore } from './store.js';
import { notifyPermissionTree, reloadPermissionLocales } from './permission-tree.js';
import { watchTree, type TreeWatch } from './tree-watch.js';
import { SCHEMA_DIRS, checkUnique, validateFile, type ParsedSchema } from './validate.js';
import { PROJECT_ROOT, projectInputs, referenceChecks, type WatchChecks } from './watch-checks.js';

export interface WatchLog {
  info(msg: string): void;
  error(msg: string): void;
}

export interface SchemaWatcher {
  close(): void;
  /** resolves when every pending change has been applied (tests) */
  settled(): Promise<void>;
}

export interface WatchOptions {
  /**
   * The cross-reference checks. Default: the project's (as schemas:check reads them) when
   * `schemasDir` is the project's `schemas/`, else none (meta-schema and unique ids / routes
   * only). Tests pass their own.
   */
  checks?: WatchChecks | Promise<WatchChecks> | null;
}

const consoleLog: WatchLog = {
  info: (m) => console.log(`[schemas] ${m}`),
  error: (m) => console.error(`[schemas] ${m}`),
};

const problemKey = (p: SchemaProblem) => `${p.file}\n${p.reason}`;

/**
 * The problems of `after` that `before` does not have (by file and reason, counted: a pointer
 * that only moved — a column inserted above — is not a new problem).
 */
export function addedProblems(after: readonly SchemaProblem[], before: readonly SchemaProblem[]): SchemaProblem[] {
  const left = new Map<string, number>();
  for (const p of before) left.set(problemKey(p), (left.get(problemKey(p)) ?? 0) + 1);
  return after.filter((p) => {
    const n = left.get(problemKey(p)) ?? 0;
    if (n) left.set(problemKey(p), n - 1);
    return !n;
  });
}

const lines = (ps: readonly SchemaProblem[]) => sortProblems(ps).map(formatProblem).join('\n');
const sameProblems = (a: readonly SchemaProblem[] | undefined, b: readonly SchemaProblem[]) =>
  a !== undefined && lines(a) === lines(b);

export function watchSchemas(
  store: SchemaStore,
  schemasDir: string,
  meta: MetaValidators,
  log: WatchLog = consoleLog,
  opts: WatchOptions = {},
): SchemaWatcher {
  const root = path.dirname(schemasDir);
  const timers = new Map<string, NodeJS.Timeout>();
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  let closed = false;
  const watchers: TreeWatch[] = [];
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');

  /** refused edits by file: the problems each would add */
  const refused = new Map<string, SchemaProblem[]>();
  /** problems of the served set (null: to compute) */
  let served: SchemaProblem[] | null = null;
  let checks: WatchChecks | null = null;

  /** the served page and form files as written (the similarity rule compares them unexpanded) */
  const written = new Map<string, string>();
  const base = path.basename(schemasDir);
  const isPageFile = (file: string) => file.startsWith(`${base}/pages/`) || file.startsWith(`${base}/forms/`);
  const writtenOf = (schemas: readonly ParsedSchema[], candidate?: { file: string; text: string }) =>
    schemas.flatMap((s) => {
      const text = s.file === candidate?.file ? candidate.text : written.get(s.file);
      return isPageFile(s.file) && text !== undefined ? [{ file: s.file, text }] : [];
    });
  const checkAll = (schemas: readonly ParsedSchema[], candidate?: { file: string; text: string }) =>
    checks ? checks.check(schemas, writtenOf(schemas, candidate)) : checkUnique(schemas);
  const servedProblems = () => (served ??= checkAll(store.all()));
  /** Takes a new served problem list; logs what it adds (a deletion or a locale edit cannot be refused). */
  const setServed = (next: SchemaProblem[], why: string) => {
    const fresh = addedProblems(next, served ?? []);
    served = next;
    if (fresh.length) log.error(`${why}: the served schemas now have ${fresh.length} problem(s):\n${lines(fresh)}`);
  };
  const publish = () => {
    if (closed) return;
    store.watch = { refused: sortProblems([...refused.values()].flat()), standing: sortProblems(servedProblems()) };
  };
  publish();

  const refuse = (file: string, problems: SchemaProblem[], retry: boolean): false => {
    const before = refused.get(file);
    refused.set(file, problems);
    if (!retry || !sameProblems(before, problems)) {
      const what = store.byFile(file) ? 'keeping the previous version' : 'not loaded';
      log.error(`${file} is invalid, ${what}:\n${lines(problems)}`);
    }
    return false;
  };

  /** Reads one file and applies it when it adds no problem; true when the store changed. */
  const attempt = async (abs: string, retry: boolean): Promise<boolean> => {
    const file = rel(abs);
    let text: string | null;
    try {
      text = await readFile(abs, 'utf8');
    } catch {
      text = null;
    }
    if (text === null) {
      const wasRefused = refused.delete(file);
      const gone = store.byFile(file);
      if (!gone) {
        if (wasRefused) log.info(`${file}: removed`);
        return false;
      }
      store.remove(gone.id);
      written.delete(file);
      log.info(`${file}: removed, schema ${gone.id} dropped`);
      setServed(checkAll(store.all()), `${file} removed`);
      return true;
    }
    const r = validateFile(text, file, abs, schemasDir, meta);
    if (!r.schema) return refuse(file, r.problems, retry);
    const found = checkAll([...store.all().filter((s) => s.file !== file), r.schema], { file, text });
    const fresh = addedProblems(found, servedProblems());
    if (fresh.length) return refuse(file, fresh, retry);
    const wasRefused = refused.delete(file);
    const before = store.get(r.schema.id);
    served = found;
    written.set(file, text);
    if (before?.hash === r.schema.hash && before.file === file) {
      if (wasRefused) log.info(`${file}: fixed, the served version is current again`);
      return false;
    }
    store.put(r.schema);
    log.info(`${file}: ${r.schema.id} v${r.schema.version} loaded (${r.schema.hash})${wasRefused ? ', error cleared' : ''}`);
    return true;
  };

  /** Tries every refused file again (something it may have waited for changed). */
  const retryRefused = async () => {
    for (let changed = true; changed; ) {
      changed = false;
      for (const file of [...refused.keys()]) if (await attempt(path.join(root, file), true)) changed = true;
    }
  };

  const enqueue = (job: () => Promise<void>, what: string) => {
    pending++;
    queue = queue
      .then(job)
      .catch((err: unknown) => log.error(`${what}: ${String(err)}`))
      .then(() => (closed ? undefined : notifyPermissionTree()))
      .catch((err: unknown) => log.error(`permission tree: ${String(err)}`))
      .finally(() => {
        pending--;
        publish();
      });
  };

  const debounce = (key: string, job: () => Promise<void>, what: string) => {
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        if (!closed) enqueue(job, what);
      }, 60),
    );
  };

  const onSchemaChange = (name: string | null) => {
    if (!name || !name.endsWith('.json')) return;
    const top = name.split(path.sep)[0];
    const abs = path.join(schemasDir, name);
    if (top === FRAGMENTS_DIR) {
      // a fragment changed: every schema that uses it is expanded and checked again (and refused
      // like a save of its own when the fragment breaks it); refused files are tried again
      const fragment = rel(abs);
      debounce(
        abs,
        async () => {
          const users = store.all().filter((s) => s.fragments?.includes(fragment));
          let changed = false;
          for (const s of users) if (await attempt(path.join(root, s.file), false)) changed = true;
          if (changed || refused.size) await retryRefused();
        },
        fragment,
      );
      return;
    }
    if (!(SCHEMA_DIRS as readonly string[]).includes(top)) return;
    debounce(
      abs,
      async () => {
        if (await attempt(abs, false)) await retryRefused();
      },
      rel(abs),
    );
  };

  const onLocaleChange = (name: string | null) => {
    if (!name || !name.endsWith('.json') || !checks) return;
    const c = checks;
    debounce(
      '<locales>',
      async () => {
        await c.reload();
        reloadPermissionLocales(); // menu titles of schema pages come from the locale files
        setServed(c.check(store.all()), 'locale files changed');
        log.info('locale files reloaded for the reference checks');
        await retryRefused();
      },
      'locales',
    );
  };

  // one watch per folder, following renames, deletions and re-creations (./tree-watch.ts)
  const startWatch = (dir: string, on: (name: string | null) => void) => {
    watchers.push(watchTree(dir, { onFile: (abs) => on(path.relative(dir, abs)), onError: (m) => log.error(m) }));
  };

  startWatch(schemasDir, onSchemaChange);
  log.info(`watching ${schemasDir}`);

  // the project's schemas, or a copy the server was pointed at (SCHEMAS_DIR, with its locale files beside it)
  const own = path.resolve(root) === PROJECT_ROOT || (process.env.SCHEMAS_DIR !== undefined && path.resolve(process.env.SCHEMAS_DIR) === path.resolve(schemasDir));
  const wanted = opts.checks !== undefined ? opts.checks : own ? projectInputs(root).then(referenceChecks) : null;
  if (wanted) {
    enqueue(async () => {
      try {
        checks = await wanted;
      } catch (err) {
        log.error(`reference checks unavailable, checking the meta-schema only: ${String(err)}`);
        return;
      }
      if (closed) return;
      for (const s of store.all()) {
        try {
          if (isPageFile(s.file)) written.set(s.file, readFileSync(path.join(root, s.file), 'utf8'));
        } catch {
          /* removed meanwhile: the watch hears of it */
        }
      }
      served = null;
      const standing = servedProblems();
      if (standing.length) log.error(`the served schemas have ${standing.length} problem(s) (schemas:check would fail):\n${lines(standing)}`);
      if (existsSync(checks.localesDir)) startWatch(checks.localesDir, onLocaleChange);
      log.info('reference checks on (as npm run schemas:check)');
    }, 'reference checks');
  }

  return {
    close() {
      closed = true;
      store.watch = null;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      for (const w of watchers) w.close();
    },
    async settled() {
      while (timers.size || pending) {
        await new Promise((r) => setTimeout(r, 20));
        await queue;
      }
    },
  };
}
