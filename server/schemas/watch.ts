/**
 * Dev watch (SCHEMA_WATCH=1): a changed schema file is validated again and swapped into the
 * store; an invalid one is logged and the old version kept. The client polls `schema/list`
 * in dev mode and reloads a page whose hash changed.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MetaValidators } from './meta.js';
import { formatProblem } from './problems.js';
import type { SchemaStore } from './store.js';
import { SCHEMA_DIRS, checkUnique, validateFile } from './validate.js';

export interface WatchLog {
  info(msg: string): void;
  error(msg: string): void;
}

export interface SchemaWatcher {
  close(): void;
  /** resolves when every pending change has been applied (tests) */
  settled(): Promise<void>;
}

const consoleLog: WatchLog = {
  info: (m) => console.log(`[schemas] ${m}`),
  error: (m) => console.error(`[schemas] ${m}`),
};

export function watchSchemas(
  store: SchemaStore,
  schemasDir: string,
  meta: MetaValidators,
  log: WatchLog = consoleLog,
): SchemaWatcher {
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const rel = (abs: string) => path.relative(path.dirname(schemasDir), abs).split(path.sep).join('/');

  const apply = async (abs: string): Promise<void> => {
    const file = rel(abs);
    let text: string;
    try {
      text = await readFile(abs, 'utf8');
    } catch {
      const gone = store.byFile(file);
      if (gone) {
        store.remove(gone.id);
        log.info(`${file}: removed, schema ${gone.id} dropped`);
      }
      return;
    }
    const r = validateFile(text, file, abs, schemasDir, meta);
    const others = store.all().filter((s) => s.file !== file);
    const problems = r.schema ? checkUnique([...others, r.schema]).filter((p) => p.file === file) : r.problems;
    if (!r.schema || problems.length) {
      log.error(`${file} is invalid, keeping the previous version:\n${problems.map(formatProblem).join('\n')}`);
      return;
    }
    const before = store.get(r.schema.id);
    if (before?.hash === r.schema.hash && before.file === file) return;
    store.put(r.schema);
    log.info(`${file}: ${r.schema.id} v${r.schema.version} loaded (${r.schema.hash})`);
  };

  const onChange = (name: string | null) => {
    if (!name || !name.endsWith('.json')) return;
    const top = name.split(path.sep)[0];
    if (!(SCHEMA_DIRS as readonly string[]).includes(top)) return;
    const abs = path.join(schemasDir, name);
    clearTimeout(timers.get(abs));
    timers.set(
      abs,
      setTimeout(() => {
        timers.delete(abs);
        const p = apply(abs).catch((err: unknown) => log.error(`${rel(abs)}: ${String(err)}`));
        running.add(p);
        void p.finally(() => running.delete(p));
      }, 60),
    );
  };

  const watcher: FSWatcher = watch(schemasDir, { recursive: true }, (_event, name) => onChange(name));
  watcher.on('error', (err) => log.error(`watch failed: ${String(err)}`));
  log.info(`watching ${schemasDir}`);

  return {
    close() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      watcher.close();
    },
    async settled() {
      while (timers.size || running.size) {
        await new Promise((r) => setTimeout(r, 20));
        await Promise.all([...running]);
      }
    },
  };
}
