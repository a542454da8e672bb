import type { MultipartFile } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { Queryable } from '../../db/db.js';
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { invalid } from '../../http/errors.js';
import { CHUNK_DEFAULTS } from '../../ai/knowledge/index.js';
import { DOC_FILE_TYPES, precheckUpload } from '../../ai/parse/index.js';
import { DOC_LEARN } from './learn-doc-job.js';
import { F } from '../engine/fields.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { mustExist } from '../engine/refs.js';
import { insertRow, mustFind, updateRow } from '../engine/routes.js';
import { ID, Id, idBody, rowSchema } from '../engine/schemas.js';
import { check } from '../engine/validate.js';
import type { ResourceDef } from '../engine/types.js';
import { DOC_STATUS, ids } from '../enums.js';
import { K } from '../keys.js';

export const DOC_MAX_BYTES = 10 * 1024 * 1024;
export const DOC_TYPES = DOC_FILE_TYPES;
export const NEED_DOC = 'please upload doc / 请上传文档';
/** estimated tokens per chunk, and the fraction of a chunk repeated at the start of the next */
const CHUNK_SIZE = Type.Integer({ minimum: 50, maximum: 4000 });
const CHUNK_OVERLAP = Type.Number({ minimum: 0, maximum: 0.5 });

/**
 * Uploaded documents; each is learned by a `doc.learn` job (learn-doc-job.ts): parsed, chunked and
 * indexed into the shop's knowledge (status 0 learning → 1 learned, 2 failed with the reason).
 */
export const learnDoc: ResourceDef = {
  name: 'learn-doc',
  auditName: 'learn_doc',
  table: 'learn_doc',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { schema: ID, nullable: true, filter: 'eq' },
    shop_name: F.shopName(),
    name: F.str(255, { required: true, sort: true }, 1),
    file_type: F.enumOf(DOC_TYPES),
    size: { schema: { type: 'integer', minimum: 0, maximum: DOC_MAX_BYTES }, sort: true },
    chunk_size: { schema: CHUNK_SIZE, readOnly: true, detailOnly: true },
    chunk_overlap: { schema: CHUNK_OVERLAP, readOnly: true, detailOnly: true, select: 't.chunk_overlap::float8' },
    status: { ...F.enumOf(ids(DOC_STATUS)), readOnly: true },
    error: { schema: { type: 'string' }, readOnly: true },
    content: { schema: { type: 'string' }, readOnly: true, detailOnly: true },
    created_at: F.createdAt(),
    learned_at: F.dateTime({ nullable: true, readOnly: true }),
  },
  operations: {
    list: { permission: K.doc },
    delete: { permission: K.docDelete },
  },
};

/** Queues the learning job in the caller's transaction (`q`): it commits with the change or not at all. */
async function enqueueLearning(ctx: RouteContext<unknown, unknown>, q: Queryable, id: number, name: string): Promise<void> {
  await ctx.req.server.jobs.enqueue(q, DOC_LEARN, { docId: id }, {
    createdBy: ctx.user?.id ?? null,
    ref: { type: 'learn_doc', id },
    title: `Learn "${name.slice(0, 80)}" / 学习文档「${name.slice(0, 80)}」`,
  });
}

const typeOf = (filename: string): string => filename.toLowerCase().split('.').pop() ?? '';

async function readUpload(ctx: RouteContext): Promise<{ fields: Record<string, string>; file: { name: string; data: Buffer } | null }> {
  const fields: Record<string, string> = {};
  let file: { name: string; data: Buffer } | null = null;
  if (!ctx.req.isMultipart()) throw invalid([{ field: 'file', message: NEED_DOC }]);
  for await (const part of ctx.req.parts({ limits: { fileSize: DOC_MAX_BYTES, files: 1, fields: 10 } })) {
    if (part.type === 'file') {
      const f = part as MultipartFile;
      const data = await f.toBuffer().catch((err: Error & { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw invalid([{ field: 'file', message: `file is larger than 10 MB / 文件不能超过 10 MB` }]);
        throw err;
      });
      if (f.file.truncated) throw invalid([{ field: 'file', message: `file is larger than 10 MB / 文件不能超过 10 MB` }]);
      if (f.fieldname !== 'file') throw invalid([{ field: f.fieldname, message: 'unexpected file field; send the document as "file" / 文件字段应为 file' }]);
      file = { name: f.filename, data };
    } else {
      fields[part.fieldname] = String((part as { value: unknown }).value);
    }
  }
  return { fields, file };
}

const createFields = Type.Object(
  {
    shop_id: Type.Optional(Id),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    chunk_size: Type.Optional(CHUNK_SIZE),
    chunk_overlap: Type.Optional(CHUNK_OVERLAP),
  },
  { additionalProperties: false },
);
/** multipart fields are text: the numbers become numbers before the schema check */
const numeric = (fields: Record<string, string>) => {
  const out: Record<string, unknown> = { ...fields };
  for (const k of ['shop_id', 'chunk_size', 'chunk_overlap']) if (k in out && /^\s*-?\d+(\.\d+)?\s*$/.test(String(out[k]))) out[k] = Number(out[k]);
  return out;
};

const createRoute: RouteDef = {
  method: 'POST',
  path: 'learn-doc/create',
  access: { permission: K.docCreate },
  summary:
    'Upload a document (multipart field `file`: txt, md, html, pdf, docx, xlsx or csv, at most 10 MB; optional `shop_id`, `name`, `chunk_size` (estimated tokens, default 500), `chunk_overlap` (0–0.5, default 0.15)); a doc.learn job learns it',
  reply: rowSchema(learnDoc),
  raw: 'multipart',
  handler: async (ctx) => {
    const { fields, file } = await readUpload(ctx);
    const f = check(createFields, numeric(fields));
    if (!file || file.data.length === 0) throw invalid([{ field: 'file', message: NEED_DOC }]);
    const type = typeOf(file.name);
    if (!(DOC_TYPES as readonly string[]).includes(type)) {
      throw invalid([{ field: 'file', message: `unsupported file type ".${type}": use ${DOC_TYPES.join(', ')} / 仅支持 ${DOC_TYPES.join('、')}` }]);
    }
    await precheckUpload(type, file.data); // a zip bomb or a broken archive: 40001 on file, nothing stored
    const row = await inRawTx(ctx, async (tx) => {
      await mustExist(tx.db, 'shop', f.shop_id, 'shop_id');
      const created = await insertRow(learnDoc, tx, { shop_id: f.shop_id ?? null, name: f.name ?? file.name, file_type: type, size: file.data.length });
      await tx.db.query(`UPDATE learn_doc SET file = $2, chunk_size = $3, chunk_overlap = $4 WHERE id = $1`, [
        created.id,
        file.data,
        f.chunk_size ?? CHUNK_DEFAULTS.size,
        f.chunk_overlap ?? CHUNK_DEFAULTS.overlap,
      ]);
      await enqueueLearning(ctx, tx.db, created.id as number, String(created.name));
      return { ...created, chunk_size: f.chunk_size ?? CHUNK_DEFAULTS.size, chunk_overlap: f.chunk_overlap ?? CHUNK_DEFAULTS.overlap };
    });
    return sendOk(ctx.reply, row);
  },
};

const learnRoute = route({
  method: 'POST',
  path: 'learn-doc/learn',
  access: { permission: K.docLearn },
  summary: 'Learn a document again (status back to 0, its chunks leave the index, a doc.learn job learns it)',
  body: idBody,
  reply: rowSchema(learnDoc),
  handler: async (ctx) => {
    const { id } = ctx.body;
    const before = await mustFind(learnDoc, ctx, id);
    await ctx.db.query(`UPDATE learn_doc SET status = 0, error = '', content = '', learned_at = NULL WHERE id = $1`, [id]);
    const row = await updateRow(learnDoc, ctx, id, {}, before, 'learn');
    await enqueueLearning(ctx, ctx.db, id, String(before.name));
    return row;
  },
});

const contentRoute = route({
  method: 'POST',
  path: 'learn-doc/get-content',
  access: { permission: K.doc },
  summary: 'The extracted text of a document (empty while status is 0)',
  body: idBody,
  reply: Type.Object({ id: Type.Integer(), name: Type.String(), status: Type.Integer(), content: Type.String(), error: Type.String() }),
  handler: async (ctx) => {
    const r = await mustFind(learnDoc, ctx, ctx.body.id);
    return { id: Number(r.id), name: String(r.name), status: Number(r.status), content: String(r.content ?? ''), error: String(r.error ?? '') };
  },
});

learnDoc.actions = [createRoute, learnRoute, contentRoute];
