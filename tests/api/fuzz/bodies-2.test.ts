// @db once
/** Broken bodies for a third of the POST routes (tests/api/fuzz/run.ts). */
import { fuzzFile } from './run.js';

await fuzzFile('body', 1, 3);
