#!/usr/bin/env node
// Import circles fail the lint (`npm run lint` runs this after ESLint): every import counts —
// static, dynamic `import()` and `import type` alike — in src, server, scripts, schemas, tests
// and bench. A circle is broken by moving what both sides need one layer down (src/contract,
// src/runtime, a types-only file) or by handing it in (a prop, a parameter), never by a lazy
// import: docs/architecture.md, "Layers and the direction of imports".
import madge from 'madge';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIRS = ['src', 'server', 'scripts', 'schemas', 'tests', 'bench'];

const started = Date.now();
const result = await madge(
  DIRS.map((d) => path.join(root, d)),
  {
    baseDir: root,
    fileExtensions: ['ts', 'tsx', 'mts', 'js', 'mjs'],
    tsConfig: path.join(root, 'tsconfig.json'),
    // generated validators import only each other; build output and data are not source
    excludeRegExp: [/node_modules/, /(^|[/\\])dist[/\\]/, /(^|[/\\])build[/\\]/, /[/\\]contract[/\\]generated[/\\]/, /(^|[/\\])\.data[/\\]/, /(^|[/\\])results[/\\]/],
    detectiveOptions: {
      ts: { skipTypeImports: false, skipAsyncImports: false },
      tsx: { skipTypeImports: false, skipAsyncImports: false },
      es6: { skipTypeImports: false, skipAsyncImports: false },
    },
  },
);
const circles = result.circular();
const files = Object.keys(result.obj()).length;
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (circles.length) {
  console.error(`✘ ${circles.length} import circle(s) among ${files} files:`);
  circles.forEach((c, i) => console.error(`  ${i + 1}) ${[...c, c[0]].join(' → ')}`));
  console.error('Break each by moving what both sides need a layer down or handing it in (docs/architecture.md).');
  process.exit(1);
}
console.log(`✔ no import circles among ${files} files (${seconds} s)`);
