import { Type } from '@sinclair/typebox';
import { notFound } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { check } from '../engine/validate.js';
import { Id } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';

import { readUpload } from '../engine/upload.js';

/** operationsTools/imageExtraction and learn/pictureAnalyze: ./image-extraction.ts */
export { imageExtraction } from './image-extraction.js';

/** operationsTools/fileUpload2S3: files kept in the database (table stored_file), no external S3. */
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
    created_at: F.createdAt(),
  },
  operations: {
    list: { permission: SK.fileUpload },
    delete: { permission: SK.fileUpload },
  },
};

const DOWNLOAD_BODY = Type.Object({ id: Id }, { additionalProperties: false });

storedFile.actions = [
  {
    method: 'POST',
    path: 's3-file/upload',
    access: { permission: SK.fileUpload },
    summary: 'Upload one file (multipart `file`, ≤ 10 MB); kept in the database',
    raw: 'multipart',
    handler: async (ctx) => {
      const { file } = await readUpload(ctx);
      const name = file.name.replace(/[\\/\r\n"]/g, '_').slice(0, 255) || 'file';
      const row = await inRawTx(ctx, async (tx) => {
        const r = await tx.db.query<{ id: number }>(
          `INSERT INTO stored_file (name, content_type, size, data, uploaded_by) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [name, file.type.slice(0, 100), file.data.length, file.data, ctx.user?.email ?? ''],
        );
        const out = { id: r.rows[0].id, name, content_type: file.type, size: file.data.length };
        await tx.audit({ action: 'upload', resource: 'stored_file', targetId: out.id, after: out });
        return out;
      });
      return sendOk(ctx.reply, row);
    },
  },
  {
    method: 'POST',
    path: 's3-file/download',
    access: { permission: SK.fileUpload },
    summary: 'Download one stored file by id (the bytes, with its name)',
    body: DOWNLOAD_BODY,
    raw: 'stream',
    handler: async (ctx) => {
      const { id } = check(DOWNLOAD_BODY, { ...((ctx.req.body as object) ?? {}) });
      const r = await ctx.db.query<{ name: string; content_type: string; data: Uint8Array }>(
        `SELECT name, content_type, data FROM stored_file WHERE id = $1`,
        [id],
      );
      if (!r.rows[0]) throw notFound('s3-file');
      const f = r.rows[0];
      return ctx.reply
        .header('content-type', f.content_type)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`)
        .send(Buffer.from(f.data));
    },
  },
];
