import type { MultipartFile } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { RouteContext } from '../../http/route.js';
import { invalid, notFound } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { check } from '../engine/validate.js';
import { Id } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';

export const FILE_MAX_BYTES = 10 * 1024 * 1024;

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

/** Reads the one multipart file (≤ 10 MB) and the plain fields of a raw upload route. */
export async function readUpload(ctx: RouteContext): Promise<{ file: { name: string; type: string; data: Buffer }; fields: Record<string, string> }> {
  const fields: Record<string, string> = {};
  let file: { name: string; type: string; data: Buffer } | null = null;
  if (!ctx.req.isMultipart()) throw invalid([{ field: 'file', message: 'please upload a file / 请上传文件' }]);
  for await (const part of ctx.req.parts({ limits: { fileSize: FILE_MAX_BYTES, files: 1 } })) {
    if (part.type === 'file') {
      const f = part as MultipartFile;
      const data = await f.toBuffer().catch(() => null);
      if (!data || f.file.truncated) throw invalid([{ field: 'file', message: 'file is larger than 10 MB / 文件不能超过 10 MB' }]);
      file = { name: f.filename, type: f.mimetype || 'application/octet-stream', data };
    } else fields[part.fieldname] = String((part as { value: unknown }).value);
  }
  if (!file || !file.data.length) throw invalid([{ field: 'file', message: 'please upload a file / 请上传文件' }]);
  return { file, fields };
}

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
