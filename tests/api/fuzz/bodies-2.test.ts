// @db once
/** Broken bodies for a third of the POST routes (tests/api/fuzz/run.ts). */
import { vi } from 'vitest';
import { fuzzFile } from './run.js';

// scrypt at a low cost in this process: fuzzed sign-ins and password changes hash (./cheap-passwords.ts)
vi.mock(import('../../../server/auth/password.js'), async (importOriginal) => (await import('./cheap-passwords.js')).withCheapHashing(await importOriginal()));

await fuzzFile('body', 1, 3);
