/**
 * Secrets at rest (model servers' API keys): AES-256-GCM from node:crypto.
 *
 * Where the 32-byte key comes from, in this order (docs/ai.md "API keys"):
 * 1. `SECRET_KEY`: 64 hex characters or base64 of 32 bytes is used as is; any other text is a
 *    passphrase stretched with scrypt. Every instance of a PostgreSQL deployment needs the same.
 * 2. A key file `secret.key` in the data directory, made on first start (mode 0600). On the
 *    embedded PGlite the data directory always exists; on PostgreSQL only when `DATA_DIR` is
 *    set explicitly (a directory shared by all instances, or one instance).
 * 3. Neither: storing a key is refused with a message naming SECRET_KEY; servers without a key
 *    (a local vLLM or Ollama) still work.
 *
 * A stored value is `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts); the key id (first
 * bytes of the key's SHA-256) tells "the key changed" apart from "the value was tampered with".
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { invalid } from '../http/errors.js';

export const KEY_FILE = 'secret.key';

export interface SecretSettings {
  /** SECRET_KEY (empty: none) */
  secretKey?: string;
  /** the data directory a key file may live in */
  dataDir: string;
  /** false on PostgreSQL when DATA_DIR was not set: no key file is made */
  keyFileAllowed: boolean;
}

interface Active {
  key: Buffer | null;
  source: 'env' | 'file' | 'none';
  id: string;
}

let active: Active | null = null;

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('base64url').slice(0, 8);

/** The 32 bytes of a SECRET_KEY value. */
export function keyFromSecret(secret: string): Buffer {
  const s = secret.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) {
    const b = Buffer.from(s, 'base64');
    if (b.length === 32) return b;
  }
  return scryptSync(s, 'backoffice-console/secret-key/v1', 32);
}

/** Reads the key file, or makes it (0600) when there is none. */
function fileKey(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  try {
    return keyFromSecret(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const hex = randomBytes(32).toString('hex');
  try {
    fs.writeFileSync(file, `${hex}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    // another process of this data directory wrote it first: use theirs
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return keyFromSecret(fs.readFileSync(file, 'utf8'));
  }
  return Buffer.from(hex, 'hex');
}

/** Chooses the key (see the top of this file). Called once at start; tests call it per server. */
export function configureSecrets(s: SecretSettings): { source: Active['source'] } {
  let key: Buffer | null = null;
  let source: Active['source'] = 'none';
  if (s.secretKey && s.secretKey.trim()) {
    key = keyFromSecret(s.secretKey);
    source = 'env';
  } else if (s.keyFileAllowed) {
    key = fileKey(s.dataDir);
    source = 'file';
  }
  active = { key, source, id: key ? keyId(key) : '' };
  return { source };
}

/** The settings of an app built with `config` (SECRET_KEY and whether DATA_DIR was set are read from `env`). */
export function secretSettings(config: { dataDir: string; databaseUrl: string }, env: NodeJS.ProcessEnv = process.env): SecretSettings {
  return { secretKey: env.SECRET_KEY, dataDir: config.dataDir, keyFileAllowed: !config.databaseUrl || (env.DATA_DIR ?? '').trim() !== '' };
}

/** The settings from the environment (for processes that did not call configureSecrets). */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): SecretSettings {
  const pg = (env.DATABASE_URL ?? '').trim() !== '';
  const dataDirSet = (env.DATA_DIR ?? '').trim() !== '';
  return {
    secretKey: env.SECRET_KEY,
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || './data'),
    keyFileAllowed: !pg || dataDirSet,
  };
}

function current(): Active {
  if (!active) configureSecrets(settingsFromEnv());
  return active!;
}

const NO_KEY =
  'no secret key: set SECRET_KEY (or DATA_DIR for a key file) to store API keys / 未配置密钥：请设置 SECRET_KEY（或设置 DATA_DIR 以生成密钥文件）后再保存 API Key';

/** Encrypts a secret for storage; '' stays ''. Throws 40001 (field `api_key`) when there is no key. */
export function encryptSecret(plain: string, field = 'api_key'): string {
  if (plain === '') return '';
  const a = current();
  if (!a.key) throw invalid([{ field, message: NO_KEY }]);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', a.key, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', a.id, iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** A stored secret that cannot be read (other key, tampered, no key): the message says which. */
export class SecretUnreadable extends Error {}

/** Decrypts a stored value; '' stays ''. Throws SecretUnreadable. */
export function decryptSecret(stored: string): string {
  if (stored === '') return '';
  const a = current();
  const [v, kid, iv, tag, ct] = stored.split('.');
  if (v !== 'v1' || !ct) throw new SecretUnreadable('the stored API key is not in a known format / 已存 API Key 格式无法识别');
  if (!a.key) throw new SecretUnreadable(NO_KEY);
  if (kid !== a.id) {
    throw new SecretUnreadable(
      'the API key was stored under another secret key (SECRET_KEY or the key file changed): enter it again / API Key 由另一密钥加密（SECRET_KEY 或密钥文件已变），请重新填写',
    );
  }
  try {
    const d = createDecipheriv('aes-256-gcm', a.key, Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadable('the stored API key failed its integrity check / 已存 API Key 校验失败');
  }
}

/** `sk-…abcd`: the first three and the last four characters (short keys show less). */
export function maskSecret(plain: string): string {
  if (!plain) return '';
  if (plain.length <= 8) return `…${plain.slice(-2)}`;
  return `${plain.slice(0, 3)}…${plain.slice(-4)}`;
}

/** Replaces every occurrence of the secret (and of its bearer header form) in a text by its mask. */
export function redactSecret(text: string, plain: string): string {
  if (!plain || !text) return text;
  return text.split(plain).join(maskSecret(plain));
}
