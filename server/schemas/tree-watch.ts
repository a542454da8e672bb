/**
 * A folder watch that never stops (issue 22): one non-recursive `fs.watch` per directory, so a
 * file replaced by a rename (an atomic save: write a temporary file, rename it over the old one,
 * as `sed -i` and safe-saving editors do) is still seen on its next change — Node's recursive
 * watch on Linux follows the replaced file's inode and misses every later save of it.
 *
 * It follows the tree as it changes: a directory created (or re-created, `git checkout` of a
 * branch) is watched and every file in it reported; a directory removed reports every file that
 * was in it; the watched root itself removed and made again is picked up (its parent is watched
 * for its name). A watcher that fails is replaced and its directory rescanned. The caller gets
 * absolute paths of files that may have changed, appeared or gone, and reads them to find out.
 */
import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface TreeWatch {
  close(): void;
}

export interface TreeWatchOptions {
  /** called for a path that may have changed (a file written, created, renamed over or removed) */
  onFile(abs: string): void;
  onError?(msg: string): void;
}

/** the inode of a directory, or null when `abs` is not one */
const dirIno = (abs: string): number | null => {
  try {
    const st = statSync(abs);
    return st.isDirectory() ? st.ino : null;
  } catch {
    return null;
  }
};
const isDir = (abs: string): boolean => dirIno(abs) !== null;

export function watchTree(root: string, opts: TreeWatchOptions): TreeWatch {
  /** watched directories: their watcher and inode (a folder replaced under the same name is a new one) */
  const dirs = new Map<string, { w: FSWatcher; ino: number }>();
  /** files seen under the tree (so a removed directory can report what it held) */
  const files = new Set<string>();
  let closed = false;
  const report = (msg: string) => opts.onError?.(msg);
  const under = (p: string, dir: string) => p === dir || p.startsWith(dir + path.sep);

  const unwatch = (dir: string) => {
    for (const [d, { w }] of [...dirs]) {
      if (!under(d, dir)) continue;
      w.close();
      dirs.delete(d);
    }
    for (const f of [...files]) {
      if (!under(f, dir)) continue;
      files.delete(f);
      opts.onFile(f);
    }
  };

  /** Watches `dir` and everything below it; `announce`: report every file found (a new or re-created folder). */
  const add = (dir: string, announce: boolean) => {
    if (closed) return;
    const ino = dirIno(dir);
    const known = dirs.get(dir);
    if (known && known.ino === ino) return;
    if (known) unwatch(dir); // replaced by another folder of the same name
    if (ino === null) return;
    let w: FSWatcher;
    try {
      w = watch(dir, (_event, name) => onEvent(dir, name === null ? null : String(name)));
    } catch (err) {
      if (existsSync(dir)) report(`watch of ${dir} failed: ${String(err)}`);
      return;
    }
    w.on('error', (err) => {
      // a folder removed under its watcher, or the watcher lost: drop it and look again
      if (closed) return;
      if (dirs.get(dir)?.w === w) dirs.delete(dir);
      w.close();
      if (existsSync(dir)) {
        report(`watch of ${dir} failed, watching it again: ${String(err)}`);
        add(dir, true);
      } else unwatch(dir);
    });
    dirs.set(dir, { w, ino });
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      /* removed meanwhile: its parent's event unwatches it */
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) add(abs, announce);
      else if (!files.has(abs)) {
        files.add(abs);
        if (announce) opts.onFile(abs);
      }
    }
  };

  const onEvent = (dir: string, name: string | null) => {
    if (closed) return;
    if (name === null) {
      // the platform did not say what changed: look at the whole folder again
      rescan(dir);
      return;
    }
    const abs = path.join(dir, name);
    if (isDir(abs)) {
      add(abs, true); // new, re-created or replaced (a no-op for a folder already watched)
      return;
    }
    if (dirs.has(abs)) {
      unwatch(abs); // a folder removed or renamed away
      return;
    }
    if (existsSync(abs)) files.add(abs);
    else files.delete(abs);
    opts.onFile(abs);
  };

  /** Compares a folder with what is known of it: new and removed files and folders are reported. */
  const rescan = (dir: string) => {
    if (!isDir(dir)) {
      unwatch(dir);
      return;
    }
    for (const f of [...files]) if (path.dirname(f) === dir && !existsSync(f)) onEvent(dir, path.basename(f));
    for (const e of readdirSync(dir)) onEvent(dir, e);
  };

  // the root may be removed and made again (a branch switch): its parent is watched for its name
  const parent = path.dirname(root);
  let parentWatch: FSWatcher | null = null;
  try {
    parentWatch = watch(parent, (_event, name) => {
      if (closed || (name !== null && String(name) !== path.basename(root))) return;
      if (isDir(root)) add(root, true);
      else unwatch(root);
    });
    parentWatch.on('error', (err) => report(`watch of ${parent} failed: ${String(err)}`));
  } catch (err) {
    report(`watch of ${parent} failed: ${String(err)}`);
  }
  add(root, false);

  return {
    close() {
      closed = true;
      parentWatch?.close();
      for (const { w } of dirs.values()) w.close();
      dirs.clear();
      files.clear();
    },
  };
}
