import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SuiteContext } from '../lib/result.js';

const vite = (ctx: SuiteContext, args: string[], what: string) => {
  const r = spawnSync(process.execPath, [path.join(ctx.root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', ...args], {
    cwd: ctx.root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${what} build failed:\n${r.stdout}\n${r.stderr}`);
};

let benchBuilt = false;

/** Production build of the bench pages into bench/console/dist (once per run); `--profile` builds unminified. */
export function buildBenchPages(ctx: SuiteContext): void {
  if (benchBuilt) return;
  ctx.log(`building the bench pages (production${ctx.profile ? ', unminified for profiling' : ''})…`);
  vite(ctx, ['--config', 'bench/console/vite.config.ts', ...(ctx.profile ? ['--minify', 'false'] : [])], 'bench page');
  benchBuilt = true;
}

const newest = (p: string): number => {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
};

/** Builds the console's dist/ when it is missing or older than its sources (as `npm start` does). */
export function ensureConsoleBuild(ctx: SuiteContext): void {
  const built = path.join(ctx.root, 'dist/index.html');
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((p) => newest(path.join(ctx.root, p)));
  if (fs.existsSync(built) && Math.max(...sources) <= fs.statSync(built).mtimeMs) return;
  ctx.log('building the console (dist/ missing or stale)…');
  vite(ctx, [], 'console');
}
