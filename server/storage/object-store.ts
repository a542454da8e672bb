/**
 * Where uploaded files (运营工具 → S3 文件 / S3 files, `s3-file/*`) keep their bytes (issue 26).
 *
 * - **local** (the default): in the database (`stored_file.data`), as before; the page labels
 *   such rows 本地（数据库）/ Local (database).
 * - **s3**: any S3-compatible object store, through AWS SDK v3 (`@aws-sdk/client-s3`), when
 *   `S3_BUCKET` is set: `S3_ENDPOINT` (empty → AWS itself), `S3_REGION` (default `us-east-1`),
 *   `S3_ACCESS_KEY_ID` / `S3_SECRET_ACCESS_KEY` (empty → the SDK's default credential chain),
 *   `S3_FORCE_PATH_STYLE` (`1` for MinIO, Ceph, s3rver…). Read at each use, like the notice
 *   settings. The endpoint is the operator's (environment), not typed by a user, so it does not
 *   go through the outbound-call policy (server/http/outbound.ts) that guards user-typed addresses.
 *
 * The credentials stay in the environment: never stored, never returned, never logged (an error
 * from the store is reduced to its code and HTTP status before it goes anywhere).
 * A row remembers its own storage, bucket and key, so changing the settings later leaves
 * existing files readable where they are.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';

// the SDK (hundreds of modules) loads with the first upload to S3, not with every server start
type Sdk = typeof import('@aws-sdk/client-s3');
let sdk: Promise<Sdk> | null = null;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= import('@aws-sdk/client-s3').catch((e: unknown) => {
    sdk = null;
    throw e;
  }));

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

const flag = (v: string | undefined) => ['1', 'true', 'yes', 'on'].includes((v ?? '').trim().toLowerCase());

/** The S3 settings from the environment, or null when uploads stay local (no `S3_BUCKET`). */
export function s3Settings(env: NodeJS.ProcessEnv = process.env): S3Settings | null {
  const bucket = (env.S3_BUCKET ?? '').trim();
  if (!bucket) return null;
  return {
    endpoint: (env.S3_ENDPOINT ?? '').trim(),
    bucket,
    region: (env.S3_REGION ?? '').trim() || 'us-east-1',
    accessKeyId: (env.S3_ACCESS_KEY_ID ?? '').trim(),
    secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: flag(env.S3_FORCE_PATH_STYLE),
  };
}

let cached: { key: string; client: S3Client } | null = null;

async function client(s: S3Settings): Promise<{ c: S3Client; sdk: Sdk }> {
  const mod = await loadSdk();
  const key = JSON.stringify(s);
  if (cached?.key === key) return { c: cached.client, sdk: mod };
  cached?.client.destroy();
  const c = new mod.S3Client({
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    ...(s.accessKeyId ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
    // checksums only where S3 requires them: S3-compatible stores do not all know the newer ones
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  cached = { key, client: c };
  return { c, sdk: mod };
}

/** A failure of the object store, with nothing of the request (no credentials, no signature) in it. */
export class ObjectStoreError extends Error {
  constructor(
    readonly op: 'put' | 'get' | 'delete',
    readonly code: string,
    readonly status: number | undefined,
  ) {
    super(`object storage ${op} failed: ${code}${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'ObjectStoreError';
  }
}

function reduce(op: ObjectStoreError['op'], e: unknown): ObjectStoreError {
  const err = e as { name?: string; Code?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const code = String(err?.Code ?? err?.name ?? err?.code ?? 'Error').replace(/[^\w.-]/g, '').slice(0, 60) || 'Error';
  return new ObjectStoreError(op, code, err?.$metadata?.httpStatusCode);
}

/** A fresh object key for an upload: date, random part, the (already cleaned) file name. */
export function objectKey(name: string, now = new Date()): string {
  const safe = name.replace(/[^\w.-]+/g, '_').slice(-100) || 'file';
  return `uploads/${now.toISOString().slice(0, 10)}/${randomBytes(12).toString('hex')}-${safe}`;
}

export async function putObject(s: S3Settings, key: string, data: Buffer, contentType: string): Promise<void> {
  try {
    const { c, sdk } = await client(s);
    await c.send(new sdk.PutObjectCommand({ Bucket: s.bucket, Key: key, Body: data, ContentType: contentType, ContentLength: data.length }));
  } catch (e) {
    throw reduce('put', e);
  }
}

/** The object's bytes, or null when the store has no such object. */
export async function getObject(s: S3Settings, bucket: string, key: string): Promise<Buffer | null> {
  try {
    const { c, sdk } = await client(s);
    const r = await c.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from(await r.Body!.transformToByteArray());
  } catch (e) {
    const x = reduce('get', e);
    if (x.code === 'NoSuchKey' || x.status === 404) return null;
    throw x;
  }
}

/** Deletes the object (S3 answers a delete of a missing key with success too). */
export async function deleteObject(s: S3Settings, bucket: string, key: string): Promise<void> {
  try {
    const { c, sdk } = await client(s);
    await c.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
  } catch (e) {
    throw reduce('delete', e);
  }
}
