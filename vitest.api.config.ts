import { defineConfig } from 'vitest/config';

/**
 * API tests: a real server + database per test file (tests/api/harness.ts): its own PGlite
 * data dir, or its own schema on PostgreSQL, so two files run at once (the machine has 2 cores).
 */
export default defineConfig({
  test: {
    include: ['tests/api/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
    pool: 'forks',
  },
});
