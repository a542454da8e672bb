#!/usr/bin/env node
// `npm run worker`: build the server when stale (scripts/lib/server-build.mjs), then run the
// worker-only process (server/worker.ts, built) in this process.
import { pathToFileURL } from 'node:url';
import { ensureServerBuilt, WORKER_ENTRY } from './lib/server-build.mjs';
import { stopWithParent } from './lib/stop-with-parent.mjs';

await ensureServerBuilt();
// stopping `npm run worker` (npm's pid) stops the worker too (lib/stop-with-parent.mjs);
// armed before the import, whose top-level await lasts until the worker runs
stopWithParent('worker');
await import(pathToFileURL(WORKER_ENTRY).href);
