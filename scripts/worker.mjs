#!/usr/bin/env node
// `npm run worker`: build the server when stale (scripts/lib/server-build.mjs), then run the
// worker-only process (server/worker.ts, built) in this process.
import { pathToFileURL } from 'node:url';
import { ensureServerBuilt, WORKER_ENTRY } from './lib/server-build.mjs';

await ensureServerBuilt();
await import(pathToFileURL(WORKER_ENTRY).href);
