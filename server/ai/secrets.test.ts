import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import {
  KEY_FILE,
  SecretUnreadable,
  configureSecrets,
  decryptSecret,
  encryptSecret,
  keyFromSecret,
  maskSecret,
  redactSecret,
  secretSettings,
} from './secrets.js';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-secrets-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('secrets', () => {
  it('round-trips through AES-256-GCM with a fresh IV each time; the ciphertext holds no part of the text', () => {
    configureSecrets({ secretKey: 'a'.repeat(64), dataDir: tmp(), keyFileAllowed: false });
    const a = encryptSecret('sk-abcdefghijklmnop');
    const b = encryptSecret('sk-abcdefghijklmnop');
    expect(a).not.toBe(b);
    expect(a).not.toContain('abcdefgh');
    expect(decryptSecret(a)).toBe('sk-abcdefghijklmnop');
    expect(encryptSecret('')).toBe('');
    expect(decryptSecret('')).toBe('');
  });

  it('refuses a tampered value and says when the key changed', () => {
    configureSecrets({ secretKey: 'one passphrase', dataDir: tmp(), keyFileAllowed: false });
    const v = encryptSecret('sk-secret-value-1234');
    const parts = v.split('.');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    parts[4] = flipped.toString('base64url');
    expect(() => decryptSecret(parts.join('.'))).toThrow(SecretUnreadable);
    configureSecrets({ secretKey: 'another passphrase', dataDir: tmp(), keyFileAllowed: false });
    expect(() => decryptSecret(v)).toThrow(/another secret key/);
  });

  it('makes a 0600 key file on first start and reads the same one later', () => {
    const dir = tmp();
    expect(configureSecrets({ dataDir: dir, keyFileAllowed: true }).source).toBe('file');
    const v = encryptSecret('sk-from-file-key');
    expect(fs.statSync(path.join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    configureSecrets({ dataDir: dir, keyFileAllowed: true });
    expect(decryptSecret(v)).toBe('sk-from-file-key');
  });

  it('on PostgreSQL without SECRET_KEY or DATA_DIR: no key file, and storing a key is 40001 naming SECRET_KEY', () => {
    const dir = tmp();
    const s = secretSettings({ dataDir: dir, databaseUrl: 'postgres://x' }, {});
    expect(s.keyFileAllowed).toBe(false);
    expect(configureSecrets(s).source).toBe('none');
    expect(fs.existsSync(path.join(dir, KEY_FILE))).toBe(false);
    try {
      encryptSecret('sk-x');
      throw new Error('not refused');
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).message).toContain('SECRET_KEY');
    }
    expect(secretSettings({ dataDir: dir, databaseUrl: 'postgres://x' }, { DATA_DIR: dir }).keyFileAllowed).toBe(true);
    expect(secretSettings({ dataDir: dir, databaseUrl: '' }, {}).keyFileAllowed).toBe(true);
  });

  it('reads SECRET_KEY as hex, base64 or a passphrase; masks and redacts', () => {
    expect(keyFromSecret('00'.repeat(32))).toEqual(Buffer.alloc(32));
    expect(keyFromSecret(Buffer.alloc(32, 7).toString('base64'))).toEqual(Buffer.alloc(32, 7));
    expect(keyFromSecret('correct horse battery staple')).toHaveLength(32);
    expect(maskSecret('sk-live-1234567890abcd')).toBe('sk-…abcd');
    expect(maskSecret('short')).toBe('…rt');
    expect(maskSecret('')).toBe('');
    expect(redactSecret('bad key sk-live-1234567890abcd given; sk-live-1234567890abcd', 'sk-live-1234567890abcd')).toBe('bad key sk-…abcd given; sk-…abcd');
  });
});
