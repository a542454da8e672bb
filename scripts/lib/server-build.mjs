// The server built once into plain JavaScript (build/server), so a start does not compile
// TypeScript: `npm start`, `npm run worker` and every server a test spawns run the bundle;
// tsx stays for development (`npm run server`) and for the unit / API tests, which import the
// sources. One esbuild bundle per entry with shared chunks; packages stay in node_modules but
// for a few pure-JavaScript ones that load faster bundled (BUNDLED_PACKAGES).
//
//   await ensureServerBuilt()   // builds when build/server is missing or older than an input
//
// Fresh means: every input esbuild read for the last build (its metafile) is older than the
// build, and no input is missing. A lock directory keeps parallel callers (test files, two
// `npm start`s) from building at once.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withLockDir } from './lock-dir.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUILD_DIR = path.join(ROOT, 'build/server');
export const SERVER_ENTRY = path.join(BUILD_DIR, 'server.js');
export const WORKER_ENTRY = path.join(BUILD_DIR, 'worker.js');
const META = path.join(BUILD_DIR, 'meta.json');
/** The paths of the build's inputs alone (meta.json is ≈ 600 KB: ≈ 50 ms to parse at each `npm start`). */
const INPUTS = path.join(BUILD_DIR, 'inputs.json');

const entryPoints = {
  server: 'server/server.ts',
  worker: 'server/worker.ts',
  'parse-worker': 'server/ai/parse/worker.ts',
};

/** Inputs of the last build newer than it (or missing), or ['(no build)']. */
export function staleInputs() {
  if (!existsSync(META) || !existsSync(SERVER_ENTRY)) return ['(no build)'];
  const builtAt = statSync(META).mtimeMs;
  const inputs = existsSync(INPUTS) ? JSON.parse(readFileSync(INPUTS, 'utf8')) : Object.keys(JSON.parse(readFileSync(META, 'utf8')).inputs);
  const out = [];
  for (const f of [...inputs, 'package-lock.json']) {
    const p = path.join(ROOT, f);
    if (!existsSync(p) || statSync(p).mtimeMs > builtAt) out.push(f);
  }
  // a new migration or source file is not an input of the old build: look at the folders too
  for (const dir of ['server', 'server/db/migrations', 'src/contract']) {
    const p = path.join(ROOT, dir);
    if (existsSync(p) && statSync(p).mtimeMs > builtAt) out.push(dir + '/');
  }
  return out;
}

/**
 * Packages bundled into the build instead of loaded from node_modules at run time: pure
 * JavaScript spread over many small modules, whose loading (resolving and reading each file)
 * cost a start more than their code (typebox's ESM build is 200 files: ≈95 ms of CPU loaded,
 * ≈8 ms bundled; docs/performance.md "Start-up"). html-to-text (ESM, with htmlparser2, domutils,
 * dom-serializer, selderee…: ≈ 60 files) is imported by two route modules at start. Only packages
 * that need no `require` of node's modules at run time can be bundled this way (the bundle is ESM).
 * Every other package stays external.
 */
export const BUNDLED_PACKAGES = ['@sinclair/typebox', 'ajv', 'ajv-formats', 'openai', 'html-to-text'];
const bundledPackage = (p) => BUNDLED_PACKAGES.some((name) => p === name || p.startsWith(name + '/'));

/**
 * esbuild plugin: bare imports of our code are external unless their package is in
 * BUNDLED_PACKAGES; what a bundled package imports is bundled with it (its own dependencies).
 */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtinModules.includes(args.path)) return { path: args.path, external: true };
      if (bundledPackage(args.path) || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildServer() {
  const esbuild = await import('esbuild');
  const started = Date.now();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: BUILD_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [externalPackages],
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    // chunks name their source for readable stack traces
    chunkNames: 'chunks/[name]-[hash]',
  });
  writeFileSync(META, JSON.stringify(result.metafile));
  writeFileSync(INPUTS, JSON.stringify(Object.keys(result.metafile.inputs)));
  return Date.now() - started;
}

/** Builds unless fresh; safe to call from several processes at once. */
export async function ensureServerBuilt({ quiet = false } = {}) {
  const fresh = () => process.env.SERVER_REBUILD !== '1' && staleInputs().length === 0;
  mkdirSync(path.dirname(BUILD_DIR), { recursive: true });
  return withLockDir(path.join(ROOT, 'build/.server-build.lock'), { staleMs: 120_000, done: fresh }, async () => {
    const ms = await buildServer();
    if (!quiet) console.log(`server built into build/server in ${ms} ms`);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ms = await buildServer();
  console.log(`server built into build/server in ${ms} ms`);
}
