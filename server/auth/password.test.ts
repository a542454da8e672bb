import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyDummy, verifyPassword } from './password.js';

describe('passwords', () => {
  it('scrypt N=2^17 with a random salt, self-describing, verifies', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsf', a)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
    expect(await verifyDummy('x')).toBe(false);
  }, 120_000);

  it('generated passwords are long and random', () => {
    const p = generatePassword();
    expect(p.length).toBeGreaterThanOrEqual(22);
    expect(generatePassword()).not.toBe(p);
  });
});
