/**
 * `npm run bench:data [-- --full]`: seeds the bench database (bench/.data/demo, or large with
 * `--full`) and exits, so `npm test` can do it early, while the cores are not all busy, instead
 * of at the start of the bench smoke at the end of the run (scripts/test.mjs). The bench reuses
 * it while the migrations and the demo seed are unchanged (bench/api/data.ts) and seeds it itself
 * when it is missing or stale.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchData } from './api/data.js';

const smoke = !process.argv.includes('--full');
const started = Date.now();
await benchData({
  smoke,
  only: [],
  skipPeer: true,
  runs: 1,
  profile: false,
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  log: (msg) => console.log(`[bench data] ${msg}`),
  wants: () => true,
  facts: {},
});
console.log(`[bench data] ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
