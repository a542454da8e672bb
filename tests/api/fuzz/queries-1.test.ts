// @db once
/** Broken queries for half of the list routes (tests/api/fuzz/run.ts). */
import { fuzzFile } from './run.js';

await fuzzFile('query', 0, 2);
