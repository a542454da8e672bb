// @db once
/**
 * Uploaded files in an S3-compatible object store (issue 26), against a local S3-compatible
 * server the test starts (`s3rver` on 127.0.0.1, a temp directory): with S3_* set, an upload's
 * bytes go to the bucket (the row keeps bucket and key, no bytes), a download reads them back, a
 * delete removes the object; without S3_BUCKET the embedded default keeps them in the database,
 * and such a file stays readable after the store is configured. A store that refuses leaves
 * nothing written; the credentials are never in a reply or an audit row.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';
import { auditMaxId, auditSince, count, expectOk, multipart, postForm } from './business/helpers.js';

const BUCKET = 'console-uploads';
// s3rver checks signatures against its one built-in key pair
const KEY_ID = 'S3RVER';
const SECRET = 'S3RVER';
const S3_VARS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;

let dir: string;
let s3rver: S3rver;
let endpoint: string;
let s: TestServer;
let admin: ApiClient;
let direct: S3Client;
const saved: Record<string, string | undefined> = {};

function useS3(vars: Partial<Record<(typeof S3_VARS)[number], string>> | null): void {
  for (const k of S3_VARS) delete process.env[k];
  if (vars) Object.assign(process.env, vars);
}
const s3Env = () => ({ S3_ENDPOINT: endpoint, S3_BUCKET: BUCKET, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: KEY_ID, S3_SECRET_ACCESS_KEY: SECRET, S3_FORCE_PATH_STYLE: '1' });

async function download(c: ApiClient, id: number): Promise<Response> {
  return fetch(c.url('s3-file/download'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'admin-token': c.token!, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    body: JSON.stringify({ id }),
  });
}

const row = async (id: number) =>
  (await s.db.query<{ storage: string; bucket: string | null; object_key: string | null; has_data: boolean }>(`SELECT storage, bucket, object_key, data IS NOT NULL AS has_data FROM stored_file WHERE id = $1`, [id])).rows[0];

beforeAll(async () => {
  for (const k of S3_VARS) saved[k] = process.env[k];
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-s3rver-'));
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const addr = (await s3rver.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${addr.port}`;
  direct = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET } });
  s = await startServer();
  admin = await s.login();
});

afterAll(async () => {
  for (const k of S3_VARS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  direct?.destroy();
  await s?.close();
  await s3rver?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('uploads in an S3-compatible store (s3rver)', () => {
  it('without S3_BUCKET a file stays in the database, labelled local', async () => {
    useS3(null);
    const up = await postForm(admin, 's3-file/upload', multipart({ name: 'local.txt', data: 'kept locally', type: 'text/plain' }));
    expectOk(up, 'local upload');
    expect(up.body.data.storage).toBe('local');
    expect(await row(up.body.data.id)).toMatchObject({ storage: 'local', bucket: null, object_key: null, has_data: true });
    const listed = (await admin.ok('GET', 's3-file/list', { keyword: 'local' })).list as Array<{ id: number; storage: string }>;
    expect(listed.find((r) => r.id === up.body.data.id)?.storage).toBe('local');
  });

  it('upload / download / delete go to the bucket; the row keeps its key, no bytes; nothing secret comes back', async () => {
    useS3(s3Env());
    const a0 = await auditMaxId(s);
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const up = await postForm(admin, 's3-file/upload', multipart({ name: 'report 1.bin', data: bytes, type: 'application/octet-stream' }));
    expectOk(up, 's3 upload');
    expect(up.body.data).toMatchObject({ storage: 's3', size: bytes.length });
    const id = up.body.data.id as number;
    const r = await row(id);
    expect(r).toMatchObject({ storage: 's3', bucket: BUCKET, has_data: false });
    expect(r.object_key).toMatch(/^uploads\/\d{4}-\d\d-\d\d\/[0-9a-f]{24}-report_1\.bin$/);

    // at the store itself: the object, its bytes and type
    const obj = await direct.send(new GetObjectCommand({ Bucket: BUCKET, Key: r.object_key! }));
    expect(Buffer.from(await obj.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    expect(obj.ContentType).toBe('application/octet-stream');

    const res = await download(admin, id);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get('content-disposition')).toContain('report%201.bin');

    const listed = (await admin.ok('GET', 's3-file/list', { page_size: 100 })).list as Array<{ id: number; storage: string }>;
    expect(listed.find((x) => x.id === id)?.storage).toBe('s3');
    const audit = (await auditSince(s, a0)).filter((x) => x.resource === 'stored_file');
    expect(audit.some((x) => x.action === 'upload')).toBe(true);
    for (const text of [JSON.stringify(up.body), JSON.stringify(listed), JSON.stringify(audit)]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(endpoint);
    }

    expectOk(await admin.post('s3-file/delete', { id }), 's3 delete');
    expect(await row(id)).toBeUndefined();
    await expect(direct.send(new HeadObjectCommand({ Bucket: BUCKET, Key: r.object_key! }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });

  it('a file kept locally stays readable once the store is configured', async () => {
    useS3(null);
    const up = await postForm(admin, 's3-file/upload', multipart({ name: 'before.txt', data: 'from before', type: 'text/plain' }));
    useS3(s3Env());
    const res = await download(admin, up.body.data.id);
    expect(await res.text()).toBe('from before');
    expectOk(await admin.post('s3-file/delete', { id: up.body.data.id }), 'local delete');
  });

  it('a store that refuses (no such bucket, an unknown key) writes nothing and says which store error, not the secret', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ S3_BUCKET: 'no-such-bucket', S3_SECRET_ACCESS_KEY: 'wrong-secret-value-123' }, /object storage failed: NoSuchBucket/],
      [{ S3_ACCESS_KEY_ID: 'key-id-value-123', S3_SECRET_ACCESS_KEY: 'wrong-secret-value-123' }, /object storage failed: InvalidAccessKeyId/],
    ];
    for (const [vars, msg] of cases) {
      useS3({ ...s3Env(), ...vars });
      const n0 = await count(s, 'stored_file');
      const up = await postForm(admin, 's3-file/upload', multipart({ name: 'refused.txt', data: 'nope', type: 'text/plain' }));
      expect(up.body.code).toBe(50200);
      expect(up.body.msg).toMatch(msg);
      expect(JSON.stringify(up.body)).not.toMatch(/wrong-secret-value-123|key-id-value-123/);
      expect(await count(s, 'stored_file')).toBe(n0);
    }
    useS3(s3Env());
  });
});
