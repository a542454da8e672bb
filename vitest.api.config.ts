import { defineConfig } from 'vitest/config';

/** API tests: real server + database per test file (tests/api/harness.ts), files one at a time. */
export default defineConfig({
  test: {
    include: ['tests/api/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
