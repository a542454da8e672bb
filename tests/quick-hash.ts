/**
 * A scrypt password hash at N = 2^10 (production: 2^17, server/auth/password.ts), in the format
 * the server stores. Sign-in verifies with the parameters stored in the hash, so an account that
 * carries one signs in through the real path for a thousandth of the CPU. Used for the test
 * harnesses' own accounts (tests/api/harness.ts, tests/e2e/harness.ts) and the fuzz shards'
 * hashing (tests/api/fuzz/cheap-passwords.ts); accounts made through the API elsewhere still hash
 * at the production cost.
 */
import { randomBytes, scryptSync } from 'node:crypto';

export function quickHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}
