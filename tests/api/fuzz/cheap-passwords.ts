/**
 * The password module of the body fuzz shards, with scrypt at N = 2^10 instead of 2^17 for the
 * hashes this process makes (new passwords, the unknown-email dummy). The shards test the input
 * layer — envelopes, no HTTP 5xx, no write left by a refused call — and a fuzzed sign-in or
 * password change that passes validation paid a full-cost scrypt (0.3–0.6 s of CPU each): one CI
 * run's `user/login` route took 57 s, `user/update-pwd` 21 s. The cost itself is tested where
 * it matters (server/auth/password.test.ts, the throttle and lockout files); verifyPassword is
 * the real one and reads the cost from the stored hash, as in production.
 */
import type * as Passwords from '../../../server/auth/password.js';
import { quickHash } from '../../quick-hash.js';

const cheapHash = async (password: string): Promise<string> => quickHash(password);

/** `vi.mock`'s factory for server/auth/password.ts in the body shards. */
export function withCheapHashing(real: typeof Passwords): typeof Passwords {
  let dummy: Promise<string> | null = null;
  return {
    ...real,
    hashPassword: cheapHash,
    async verifyDummy(password: string): Promise<false> {
      dummy ??= cheapHash('dummy-password-for-timing');
      await real.verifyPassword(password, await dummy);
      return false;
    },
  };
}
