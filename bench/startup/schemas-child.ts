/**
 * Child process: time schema validation as the server does it at start, in a fresh process
 * (so ajv compiles the meta-schemas cold). Prints `BENCH_SCHEMAS {...}`.
 * Baseline: reading and JSON.parse of the same files, without validation.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_SCHEMAS_DIR, listJsonFiles, loadSchemas } from '../../server/schemas/index.js';
import { loadMetaValidators } from '../../server/schemas/meta.js';
import { SCHEMA_DIRS } from '../../server/schemas/validate.js';

const dir = DEFAULT_SCHEMAS_DIR;
const t0 = performance.now();
const files = (await Promise.all(SCHEMA_DIRS.map((d) => listJsonFiles(path.join(dir, d))))).flat();
for (const t of await Promise.all(files.map((f) => readFile(f, 'utf8')))) JSON.parse(t);
const parseMs = performance.now() - t0;

const t1 = performance.now();
const store = await loadSchemas(dir, { watch: false });
const loadMs = performance.now() - t1;

// meta-schema compilation alone, a second time (now warm) — tells compile from validate
const t2 = performance.now();
await loadMetaValidators(path.join(dir, 'meta'));
const metaWarmMs = performance.now() - t2;

console.log(`BENCH_SCHEMAS ${JSON.stringify({ files: files.length, parseMs, loadMs, metaWarmMs, stored: typeof store === 'object' })}`);
