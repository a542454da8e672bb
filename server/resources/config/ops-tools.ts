import { Type } from '@sinclair/typebox';
import { Code } from '../../../src/contract/codes.js';
import { AppError, notFound } from '../../http/errors.js';
import { deleteObject, getObject, objectKey, ObjectStoreError, putObject, s3Settings } from '../../storage/object-store.js';
import { F } from '../engine/fields.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { check } from '../engine/validate.js';
import { Id } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';

import { readUpload } from '../engine/upload.js';
import { FileReply, StringEnum } from '../../http/typebox.js';

/** operationsTools/imageExtraction and learn/pictureAnalyze: ./image-extraction.ts */
export { imageExtraction } from './image-extraction.js';

/**
 * operationsTools/fileUpload2S3: uploaded files (table stored_file). The bytes go to the
 * S3-compatible store of `S3_*` when one is configured, else into the database (`storage`
 * local, the embedded default, labelled so on the page): server/storage/object-store.ts.
 */
export const storedFile: ResourceDef = {
  name: 's3-file',
  auditName: 'stored_file',
  table: 'stored_file',
  keyword: "to_tsvector('simple', t.name)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: { ...F.str(255), readOnly: true, sort: true },
    content_type: { ...F.str(100), readOnly: true },
    size: { schema: { type: 'integer' }, readOnly: true },
    uploaded_by: { schema: { type: 'string' }, readOnly: true },
    storage: { ...F.str(10), readOnly: true },
    created_at: F.createdAt(),
  },
  operations: {
    list: { permission: SK.fileUpload },
    delete: { permission: SK.fileUpload },
  },
  // the object goes first: a store that refuses leaves the row (and the file) as they were
  async beforeDelete(row, ctx) {
    const r = await ctx.db.query<{ storage: string; bucket: string | null; object_key: string | null }>(`SELECT storage, bucket, object_key FROM stored_file WHERE id = $1`, [row.id]);
    const f = r.rows[0];
    if (f?.storage !== 's3' || !f.bucket || !f.object_key) return;
    await storeCall(() => deleteObject(mustS3(), f.bucket!, f.object_key!));
  },
};

/** The store's settings for a row kept there; without them its file cannot be reached. */
function mustS3() {
  const s = s3Settings();
  if (!s) throw new AppError(Code.CONFLICT, 'this file is in object storage, which is not configured (S3_BUCKET) / 该文件保存在对象存储中，但未配置对象存储（S3_BUCKET）');
  return s;
}

/** A call to the store; its failure becomes a 50200 envelope naming only the store's error code. */
async function storeCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof ObjectStoreError)) throw e;
    throw new AppError(Code.UPSTREAM, `object storage failed: ${e.code} / 对象存储操作失败：${e.code}`, { op: e.op, code: e.code, status: e.status ?? null });
  }
}

const DOWNLOAD_BODY = Type.Object({ id: Id }, { additionalProperties: false });

storedFile.actions = [
  {
    method: 'POST',
    path: 's3-file/upload',
    access: { permission: SK.fileUpload },
    summary: 'Upload one file (multipart `file`, ≤ 10 MB); to the S3-compatible store when S3_BUCKET is set, else kept in the database',
    reply: Type.Object({ id: Type.Integer(), name: Type.String(), content_type: Type.String(), size: Type.Integer(), storage: StringEnum(['s3', 'local']) }),
    raw: 'multipart',
    handler: async (ctx) => {
      const { file } = await readUpload(ctx);
      const name = file.name.replace(/[\\/\r\n"]/g, '_').slice(0, 255) || 'file';
      const type = file.type.slice(0, 100);
      const s3 = s3Settings();
      const key = s3 ? objectKey(name) : null;
      if (s3 && key) await storeCall(() => putObject(s3, key, file.data, type || 'application/octet-stream'));
      try {
        const row = await inRawTx(ctx, async (tx) => {
          const r = await tx.db.query<{ id: number }>(
            `INSERT INTO stored_file (name, content_type, size, data, uploaded_by, storage, bucket, object_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
            [name, type, file.data.length, s3 ? null : file.data, ctx.user?.email ?? '', s3 ? 's3' : 'local', s3?.bucket ?? null, key],
          );
          const out = { id: r.rows[0].id, name, content_type: file.type, size: file.data.length, storage: s3 ? 's3' : 'local' };
          await tx.audit({ action: 'upload', resource: 'stored_file', targetId: out.id, after: out });
          return out;
        });
        return sendOk(ctx.reply, row);
      } catch (e) {
        // the row was not written: the object goes too (best effort), nothing is left behind
        if (s3 && key) await deleteObject(s3, s3.bucket, key).catch(() => undefined);
        throw e;
      }
    },
  },
  {
    method: 'POST',
    path: 's3-file/download',
    access: { permission: SK.fileUpload },
    summary: 'Download one stored file by id (the bytes, with its name)',
    body: DOWNLOAD_BODY,
    reply: FileReply('application/octet-stream', 'the stored file, under its own content type'),
    raw: 'stream',
    handler: async (ctx) => {
      const { id } = check(DOWNLOAD_BODY, { ...((ctx.req.body as object) ?? {}) });
      const r = await ctx.db.query<{ name: string; content_type: string; data: Uint8Array | null; storage: string; bucket: string | null; object_key: string | null }>(
        `SELECT name, content_type, data, storage, bucket, object_key FROM stored_file WHERE id = $1`,
        [id],
      );
      if (!r.rows[0]) throw notFound('s3-file');
      const f = r.rows[0];
      let bytes: Buffer;
      if (f.storage === 's3') {
        const got = await storeCall(() => getObject(mustS3(), f.bucket!, f.object_key!));
        if (!got) throw new AppError(Code.NOT_FOUND, 'the file is missing from object storage / 对象存储中找不到该文件');
        bytes = got;
      } else bytes = Buffer.from(f.data ?? new Uint8Array());
      return ctx.reply
        .header('content-type', f.content_type || 'application/octet-stream')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`)
        .send(bytes);
    },
  },
];
