import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';

/** scrypt at OWASP parameters: N = 2^17, r = 8, p = 1 (128 MiB per hash). */
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 256 * 1024 * 1024;
/** for new passwords only (src/contract/password.ts); sign-in accepts any stored password */
export { PASSWORD_MIN_LENGTH as MIN_PASSWORD_LENGTH } from '../../src/contract/password.js';

/**
 * Hashes at once: one core fewer than the machine has (at least one), so a storm of sign-ins
 * queues here instead of taking every core from the requests being answered (issue 12 item 3).
 */
const HASH_SLOTS = Math.max(1, availableParallelism() - 1);
let hashing = 0;
const waiting: (() => void)[] = [];

async function inSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (hashing >= HASH_SLOTS) await new Promise<void>((res) => waiting.push(res));
  else hashing++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else hashing--;
  }
}

const derive = (password: string, salt: Buffer, n: number, r: number, p: number, keylen: number) =>
  inSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, keylen, { N: n, r, p, maxmem: MAXMEM }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );

/** Encoded as `scrypt$N$r$p$salt$hash` (base64url), so parameters can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P, KEYLEN);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (!n || !r || !p || expected.length === 0) return false;
  const key = await derive(password, salt, n, r, p, expected.length);
  return timingSafeEqual(key, expected);
}

let dummy: Promise<string> | null = null;
/** Spends the same time as a real check, for unknown emails. Always false. */
export async function verifyDummy(password: string): Promise<false> {
  dummy ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(password, await dummy);
  return false;
}

/** A strong random password (~128 bits), for generated admin and reset passwords. */
export function generatePassword(): string {
  return randomBytes(16).toString('base64url');
}
