#!/usr/bin/env node
// `npm start`: build the client when it is missing or older than its sources, and the server
// (scripts/lib/server-build.mjs) likewise, then run the
// server (embedded PGlite by default, demo data on an empty database) in this same process: the
// built server handles SIGINT / SIGTERM itself (checkpoint, close the database, exit).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServerBuilt, SERVER_ENTRY } from './lib/server-build.mjs';
import { stopWithParent } from './lib/stop-with-parent.mjs';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'dist', 'index.html');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => join(root, p));
const stale = !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
if (stale) {
  console.log('Building the console (first start or sources changed)…');
  const r = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// the server runs from its built bundle (build/server): no TypeScript compiled at each start.
// It is imported here rather than spawned as a second node process: one node start fewer
// (≈ 50 ms of CPU; docs/performance.md "Start-up"). Its working directory is the project's, as
// for a spawned one.
await ensureServerBuilt();
process.chdir(root);
// stopping `npm start` (npm's pid) stops the server too (lib/stop-with-parent.mjs);
// armed before the import, whose top-level await lasts until the server listens
stopWithParent('start');
await import(pathToFileURL(SERVER_ENTRY).href);
