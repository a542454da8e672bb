/**
 * operationsTools/imageExtraction (and learn/pictureAnalyze, which reads the same rows): images
 * uploaded to the console, and the text and attributes a vision-capable model server read from
 * them (docs/ai.md "Image extraction").
 *
 * - `POST image-extraction/upload` (multipart `file`): a png, jpeg, webp or gif (checked by its
 *   bytes, not its name; no SVG), ≤ 10 MB, kept in `image_file`; the reply's `url` is the
 *   same-origin path the row's `image_url` takes.
 * - `GET image-extraction/image?id=`: the bytes, with their type and `nosniff`, to whoever may open
 *   either page (a signed-in session with one of the page keys).
 * - `POST image-extraction/create` (`extract: true`) and `POST image-extraction/extract`: an
 *   `image.extract` job (image-extract-job.ts) queued in the same transaction as the row's state.
 */
import { createHash } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { Queryable } from '../../db/db.js';
import { Type } from '@sinclair/typebox';
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { mustExist } from '../engine/refs.js';
import { findRow } from '../engine/list.js';
import { insertRow, mustFind, updateRow } from '../engine/routes.js';
import { createBodySchema, idBody, rowSchema, type Fields } from '../engine/schemas.js';
import type { ResourceDef, Row } from '../engine/types.js';
import { SK } from '../sessions/keys.js';
import { EXTRACT_STATUS, firstVisionServer, IMAGE_EXTRACT_KIND, NO_VISION_MODEL, NOT_STORED } from './image-extract-job.js';
import { FileReply } from '../../http/typebox.js';

const PICTURE_ANALYZE = 'intelligent_text.text.learn.picture_analyze';

export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** the same-origin path an uploaded image is served from (`image_url` of its rows) */
export const IMAGE_PATH = '/api/admin/image-extraction/image?id=';
const IMAGE_PATH_RE = /^\/api\/admin\/image-extraction\/image\?id=([1-9]\d{0,9})$/;

/** a job of this row that is still queued or running */
const LIVE_JOB = `EXISTS (SELECT 1 FROM work_job j WHERE j.id = t.extract_job_id AND j.state IN ('queued', 'running'))`;

export const imageExtraction: ResourceDef = {
  name: 'image-extraction',
  auditName: 'image_extraction',
  table: 'image_extraction',
  keyword: "to_tsvector('simple', t.title)",
  keywordIds: ['id', 'shop_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: F.shopId(),
    shop_name: F.shopName(),
    title: F.str(200, { required: true }, 1),
    // an uploaded image (IMAGE_PATH + id), another path on the console, or (older rows) an http(s)
    // address; the page's CSP shows only same-origin images, and only uploaded ones can be extracted
    image_url: { ...F.url(), required: true, schema: { type: 'string', maxLength: 500, pattern: '^(https?://|/)\\S+$' } },
    /** the uploaded image of `image_url` (set by the server from it) */
    image_file_id: { schema: { type: 'integer' }, nullable: true, serverSet: true },
    extracted_text: F.text(20000, { detailOnly: true }),
    extra_info: F.text(20000, { detailOnly: true }),
    remark: F.str(1000),
    /** 0 not extracted, 1 extracting, 2 extracted, 3 failed, 4 no vision model */
    extract_status: { ...F.enumOf([0, 1, 2, 3, 4]), readOnly: true },
    /** why the last extraction failed or could not run (status 3, 4) */
    extract_error: { schema: { type: 'string' }, readOnly: true },
    /** the model server that read the image: "name (model)" */
    extract_model: { schema: { type: 'string' }, readOnly: true },
    attributes: { schema: { type: 'object', additionalProperties: true }, readOnly: true, detailOnly: true },
    extract_job_id: { schema: { type: 'integer' }, nullable: true, readOnly: true, select: 't.extract_job_id::int' },
    extract_job_state: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT j.state FROM work_job j WHERE j.id = t.extract_job_id)',
    },
    extracted_at: F.dateTime({ nullable: true, readOnly: true }),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    // also read by learn/pictureAnalyze (the analysed images and their results)
    list: { permission: [SK.imageExtraction, PICTURE_ANALYZE] },
    detail: { permission: [SK.imageExtraction, PICTURE_ANALYZE] },
    // create: the bespoke route below (it may queue an extraction)
    update: { permission: SK.imageExtraction },
    delete: { permission: SK.imageExtraction },
  },
  validate: async (v, ctx, mode) => {
    if (mode === 'create' || 'shop_id' in v) await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    if (typeof v.image_url === 'string') v.image_file_id = await imageFileOf(ctx.db, v.image_url);
  },
  afterUpdate: async (row, before, ctx) => {
    // another image: what was read from the old one no longer describes it
    if (row.image_url !== before.image_url && before.extract_status !== EXTRACT_STATUS.none) {
      await ctx.db.query(
        `UPDATE image_extraction SET extract_status = 0, extract_error = '', extract_model = '', extract_job_id = NULL, extracted_at = NULL WHERE id = $1`,
        [row.id],
      );
    }
  },
};

/** The uploaded image a path names (40001 on image_url when it names none), or null for another address. */
async function imageFileOf(db: Queryable, url: string): Promise<number | null> {
  const m = IMAGE_PATH_RE.exec(url);
  if (!m) return null;
  const r = await db.query<{ id: number }>(`SELECT id FROM image_file WHERE id = $1`, [Number(m[1])]);
  if (!r.rows[0]) throw invalid([{ field: 'image_url', message: `no uploaded image ${m[1]}: upload the image again / 图片 ${m[1]} 不存在，请重新上传` }]);
  return r.rows[0].id;
}

/** png, jpeg, webp or gif by the file's first bytes (the name and the sent type are not trusted); else null. */
export function imageTypeOf(b: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

const NEED_IMAGE = 'please upload an image (png, jpeg, webp or gif) / 请上传图片（png、jpeg、webp 或 gif）';
const TOO_LARGE = 'image is larger than 10 MB / 图片不能超过 10 MB';
const NOT_IMAGE = 'not a png, jpeg, webp or gif image (checked by its content; SVG is not taken) / 不是 png、jpeg、webp 或 gif 图片（按内容检查，不接受 SVG）';

/** The one image of an upload (multipart field `file`), checked; 40001 on `file` for anything else. */
async function readImage(ctx: RouteContext): Promise<{ name: string; type: string; data: Buffer }> {
  if (!ctx.req.isMultipart()) throw invalid([{ field: 'file', message: NEED_IMAGE }]);
  let file: { name: string; data: Buffer } | null = null;
  for await (const part of ctx.req.parts({ limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 10 } })) {
    if (part.type !== 'file') continue; // no other fields are read
    const f = part as MultipartFile;
    if (f.fieldname !== 'file') {
      f.file.resume();
      throw invalid([{ field: f.fieldname || 'file', message: 'unexpected file field; send the image as "file" / 图片字段应为 file' }]);
    }
    const data = await f.toBuffer().catch((err: Error & { code?: string }) => {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw invalid([{ field: 'file', message: TOO_LARGE }]);
      throw err;
    });
    if (f.file.truncated) throw invalid([{ field: 'file', message: TOO_LARGE }]);
    file = { name: f.filename, data };
  }
  if (!file || !file.data.length) throw invalid([{ field: 'file', message: NEED_IMAGE }]);
  const type = imageTypeOf(file.data);
  if (!type) throw invalid([{ field: 'file', message: NOT_IMAGE }]);
  return { name: file.name || 'image', type, data: file.data };
}

/**
 * Starts an extraction of a row in the caller's transaction: an `image.extract` job (status 1),
 * or at once the state that says why none can run (3: not an uploaded image, 4: no vision model).
 */
async function startExtraction(ctx: RouteContext<unknown, unknown>, q: Queryable, row: Row): Promise<void> {
  const id = Number(row.id);
  if (row.image_file_id === null || row.image_file_id === undefined) {
    await q.query(`UPDATE image_extraction SET extract_status = 3, extract_error = $2, extract_job_id = NULL WHERE id = $1`, [id, NOT_STORED]);
    return;
  }
  if (!(await firstVisionServer(q))) {
    await q.query(`UPDATE image_extraction SET extract_status = 4, extract_error = $2, extract_job_id = NULL WHERE id = $1`, [id, NO_VISION_MODEL]);
    return;
  }
  const job = await ctx.req.server.jobs.enqueue(q, IMAGE_EXTRACT_KIND, { rowId: id }, {
    createdBy: ctx.user?.id ?? null,
    ref: { type: 'image_extraction', id },
    title: `Extract "${String(row.title).slice(0, 60)}" / 识别图片「${String(row.title).slice(0, 60)}」`,
  });
  await q.query(`UPDATE image_extraction SET extract_status = 1, extract_error = '', extract_job_id = $2 WHERE id = $1`, [id, job.id]);
}

/** the engine's create body of the resource (built from the declaration: typed as a record), plus `extract` */
const createBody = (() => {
  const b = createBodySchema(imageExtraction);
  return Type.Unsafe<Fields & { extract?: boolean }>({ ...b, properties: { ...b.properties, extract: { type: 'boolean' } } });
})();

imageExtraction.actions = [
  route({
    method: 'POST',
    path: 'image-extraction/create',
    access: { permission: SK.imageExtractionAdd },
    summary:
      'Create an image row (`image_url`: an uploaded image\'s path from image-extraction/upload, or another address); `extract: true` queues an image.extract job at once (or says why none can run)',
    body: createBody,
    reply: rowSchema(imageExtraction),
    handler: async (ctx) => {
      const { extract, ...values } = ctx.body;
      await imageExtraction.validate!(values, ctx, 'create');
      const row = await insertRow(imageExtraction, ctx, values);
      if (!extract) return row;
      await startExtraction(ctx, ctx.db, row);
      return (await findRow(imageExtraction, ctx.db, Number(row.id)))!;
    },
  }),
  route({
    method: 'POST',
    path: 'image-extraction/extract',
    access: { permission: SK.imageExtraction },
    summary:
      'Extract (识别) the text and attributes of a row\'s uploaded image with the first enabled vision model server, as an image.extract job; with no vision server the row says so (extract_status 4)',
    body: idBody,
    reply: rowSchema(imageExtraction),
    handler: async (ctx) => {
      const { id } = ctx.body;
      const before = await mustFind(imageExtraction, ctx, id);
      const live = await ctx.db.query(`SELECT 1 FROM image_extraction t WHERE t.id = $1 AND ${LIVE_JOB}`, [id]);
      if (live.rows.length) throw conflict('extraction is already queued or running / 正在识别中，请稍候');
      await startExtraction(ctx, ctx.db, before);
      return updateRow(imageExtraction, ctx, id, {}, before, 'extract');
    },
  }),
  {
    method: 'POST',
    path: 'image-extraction/upload',
    access: { permission: [SK.imageExtractionAdd, SK.imageExtraction] },
    summary:
      'Upload one image (multipart `file`: png, jpeg, webp or gif by its content, ≤ 10 MB); kept in the console. Reply `{ id, url, name, content_type, size }`: `url` is the path for `image_url`',
    reply: Type.Object({ id: Type.Integer(), url: Type.String({ description: 'the path for image_url' }), name: Type.String(), content_type: Type.String(), size: Type.Integer() }),
    raw: 'multipart',
    handler: async (ctx) => {
      const img = await readImage(ctx);
      const out = await inRawTx(ctx, async (tx) => {
        const sha = createHash('sha256').update(img.data).digest('hex');
        const r = await tx.db.query<{ id: number }>(
          `INSERT INTO image_file (name, content_type, size, sha256, data, uploaded_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [img.name.slice(0, 255), img.type, img.data.length, sha, img.data, ctx.user?.id ?? null],
        );
        const id = r.rows[0].id;
        const row = { id, url: `${IMAGE_PATH}${id}`, name: img.name, content_type: img.type, size: img.data.length };
        await tx.audit({ action: 'upload', resource: 'image_file', targetId: id, after: { ...row, sha256: sha } });
        return row;
      });
      return sendOk(ctx.reply, out);
    },
  },
  route({
    method: 'GET',
    path: 'image-extraction/image',
    access: { permission: [SK.imageExtraction, SK.imageExtractionAdd, PICTURE_ANALYZE] },
    summary: 'One uploaded image: its bytes with their type (png, jpeg, webp or gif) and X-Content-Type-Options: nosniff',
    query: idBody,
    reply: FileReply(['image/png', 'image/jpeg', 'image/webp', 'image/gif'], 'the image bytes'),
    raw: 'stream',
    handler: async (ctx) => {
      const { id } = ctx.query;
      const r = await ctx.db.query<{ content_type: string; data: Uint8Array }>(`SELECT content_type, data FROM image_file WHERE id = $1`, [id]);
      if (!r.rows[0]) throw notFound('image');
      return ctx.reply
        .header('content-type', r.rows[0].content_type)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="image-${id}"`)
        .header('cache-control', 'private, max-age=86400')
        .send(Buffer.from(r.rows[0].data));
    },
  }),
] satisfies RouteDef[];
