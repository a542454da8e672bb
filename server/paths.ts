/**
 * Where the project's files are, for code that reads them at run time (migrations, schemas,
 * locales, the parse worker). The server runs from its TypeScript sources (tsx: tests,
 * development) or from one built bundle (build/server, scripts/build-server.mjs: npm start,
 * npm run worker, the test servers); `import.meta.url` differs between the two, the project
 * root does not: it is the nearest folder above this module holding the project's package.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'server'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project root above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
/** true when this code runs from the built bundle rather than the TypeScript sources */
export const RUNS_BUILT = import.meta.url.endsWith('.js');
