import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { sequencerFor } from './tests/sequencer.js';
import { localeParts } from './vite.config.js';

/**
 * Unit tests beside the code: `*.test.tsx` under src run in jsdom, every `*.test.ts` in node.
 * The API suite (tests/api, vitest.api.config.ts) and the browser suite (tests/e2e, node:test)
 * run separately.
 */
const exclude = ['node_modules/**', 'dist/**', 'tests/api/**', 'tests/e2e/**'];

export default defineConfig({
  // zh-CN's texts in parts, as the console's build has them (src/console/i18n.ts)
  plugins: [react(), localeParts()],
  test: {
    // the slowest files first (tests/durations.json), so both workers end together
    sequence: { sequencer: sequencerFor('unit') },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'schemas/**/*.test.ts'],
          exclude,
          // some node tests load every schema or start a parse worker: seconds on a loaded 2-core box
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: { name: 'dom', environment: 'jsdom', include: ['src/**/*.test.tsx'], exclude },
      },
    ],
  },
});
