import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { sequencerFor } from './tests/sequencer.js';

/**
 * API tests: a real server + database per test file (tests/api/harness.ts): its own PGlite
 * data dir, or its own database on PostgreSQL, so two files run at once (the machine has 2 cores).
 *
 * Which database each file runs on (docs/testing.md): every file says it in a `// @db …` line —
 * `both`: it depends on the database engine (transactions, locks, the queue, crashes, throttling,
 *   engine-specific SQL) and runs on PGlite and on PostgreSQL;
 * `once`: it does not (routes, permissions, validation, texts) and runs once: on PostgreSQL when
 *   TEST_DATABASE_URL is set, else on PGlite;
 * `pglite`: it tests PGlite itself (the data-dir lock) and runs on PGlite only.
 * With TEST_DATABASE_URL set the suite runs `both` + `once`; without it, API_DB_SCOPE=engine
 * (npm test's PGlite step, when a PostgreSQL step follows) runs `both` + `pglite`, and otherwise
 * every file runs on PGlite. A file without the line stops the run.
 */
const MARK = /^\/\/ @db (both|once|pglite)\b/m;
const files = readdirSync('tests/api', { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `tests/api/${f.split('\\').join('/')}`);
const kind = (f: string) => MARK.exec(readFileSync(f, 'utf8').slice(0, 400))?.[1];
const unmarked = files.filter((f) => !kind(f));
if (unmarked.length) throw new Error(`API test files without a "// @db both|once|pglite" first line (docs/testing.md): ${unmarked.join(', ')}`);
const onPg = Boolean(process.env.TEST_DATABASE_URL);
const wanted = onPg ? ['both', 'once'] : process.env.API_DB_SCOPE === 'engine' ? ['both', 'pglite'] : ['both', 'once', 'pglite'];

export default defineConfig({
  test: {
    include: files.filter((f) => wanted.includes(kind(f)!)),
    environment: 'node',
    // a bound for a stuck test, not a speed goal: several cases (the route matrix, fuzz shards,
    // crash tests) took 50–76 s at load 17, so 60 s failed them by chance
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    // two by default (2 cores); npm test gives the PostgreSQL step three (API_WORKERS): a fifth of
    // its file time is waiting — outages, partitions, campaign ticks — that a third file fills
    maxWorkers: Math.max(1, Number(process.env.API_WORKERS) || 2),
    pool: 'forks',
    sequence: { sequencer: sequencerFor(onPg ? 'api-postgres' : 'api-pglite') },
  },
});
