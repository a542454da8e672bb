import type { MultipartFile } from '@fastify/multipart';
import type { Db } from '../db/db.js';
import type { RouteContext, RouteDef } from '../http/route.js';
import { invalid } from '../http/errors.js';
import { extractText } from './doc-text.js';
import { F } from './engine/fields.js';
import { inRawTx, sendOk } from './engine/raw.js';
import { mustExist } from './engine/refs.js';
import { insertRow, mustFind, updateRow } from './engine/routes.js';
import { ID } from './engine/schemas.js';
import { check } from './engine/validate.js';
import type { ResourceDef } from './engine/types.js';
import { DOC_STATUS, ids } from './enums.js';
import { K } from './keys.js';

export const DOC_MAX_BYTES = 10 * 1024 * 1024;
export const DOC_TYPES = ['txt', 'md', 'pdf', 'docx'] as const;
export const NEED_DOC = 'please upload doc / 请上传文档';

/** Uploaded documents; their text is learned in the background (status 0 learning → 1 learned, 2 failed). */
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
    name: F.str(255, { required: true }, 1),
    file_type: F.enumOf(DOC_TYPES),
    size: { schema: { type: 'integer', minimum: 0, maximum: DOC_MAX_BYTES }, sort: true },
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

/** Extracts the text after the request (the background job); failures end in status 2 with the reason. */
export function scheduleLearning(db: Db, id: number, delayMs = 20): void {
  setTimeout(() => {
    void (async () => {
      const r = await db.query<{ file_type: string; file: Uint8Array | null }>(`SELECT file_type, file FROM learn_doc WHERE id = $1 AND status = 0`, [id]);
      const doc = r.rows[0];
      if (!doc) return;
      try {
        const text = extractText(doc.file_type, Buffer.from(doc.file ?? new Uint8Array()));
        await db.query(`UPDATE learn_doc SET status = 1, content = $2, error = '', learned_at = now() WHERE id = $1 AND status = 0`, [id, text]);
      } catch (err) {
        await db.query(`UPDATE learn_doc SET status = 2, error = $2 WHERE id = $1 AND status = 0`, [id, String((err as Error).message).slice(0, 500)]);
      }
    })().catch(() => undefined); // the database may be closed (shutdown, tests)
  }, delayMs);
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
      if (f.fieldname !== 'file') throw invalid([{ field: f.fieldname, message: 'unexpected file field; send the document as "file"' }]);
      file = { name: f.filename, data };
    } else {
      fields[part.fieldname] = String((part as { value: unknown }).value);
    }
  }
  return { fields, file };
}

const createFields = {
  type: 'object',
  additionalProperties: false,
  properties: { shop_id: ID, name: { type: 'string', minLength: 1, maxLength: 255 } },
};

const createRoute: RouteDef = {
  method: 'POST',
  path: 'learn-doc/create',
  access: { permission: K.docCreate },
  summary: 'Upload a document (multipart field `file`: txt, md, pdf or docx, at most 10 MB; optional `shop_id`, `name`); learning starts in the background',
  raw: 'multipart',
  handler: async (ctx) => {
    const { fields, file } = await readUpload(ctx);
    const f = check<{ shop_id?: number; name?: string }>(createFields, fields);
    if (!file || file.data.length === 0) throw invalid([{ field: 'file', message: NEED_DOC }]);
    const type = typeOf(file.name);
    if (!(DOC_TYPES as readonly string[]).includes(type)) {
      throw invalid([{ field: 'file', message: `unsupported file type ".${type}": use txt, md, pdf or docx / 仅支持 txt、md、pdf、docx` }]);
    }
    const row = await inRawTx(ctx, async (tx) => {
      await mustExist(tx.db, 'shop', f.shop_id, 'shop_id');
      const created = await insertRow(learnDoc, tx, { shop_id: f.shop_id ?? null, name: f.name ?? file.name, file_type: type, size: file.data.length });
      await tx.db.query(`UPDATE learn_doc SET file = $2 WHERE id = $1`, [created.id, file.data]);
      return created;
    });
    scheduleLearning(ctx.db as Db, row.id as number);
    return sendOk(ctx.reply, row);
  },
};

const idOnly = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: ID } };

const learnRoute: RouteDef = {
  method: 'POST',
  path: 'learn-doc/learn',
  access: { permission: K.docLearn },
  summary: 'Learn a document again (status back to 0, text extracted in the background)',
  body: idOnly,
  // raw so the background job can use the root database after the reply
  raw: 'stream',
  handler: async (ctx) => {
    const { id } = check<{ id: number }>(idOnly, { ...((ctx.req.body as object) ?? {}) });
    const row = await inRawTx(ctx, async (tx) => {
      const before = await mustFind(learnDoc, tx, id);
      await tx.db.query(`UPDATE learn_doc SET status = 0, error = '', content = '', learned_at = NULL WHERE id = $1`, [id]);
      return updateRow(learnDoc, tx, id, {}, before, 'learn');
    });
    scheduleLearning(ctx.db as Db, id);
    return sendOk(ctx.reply, row);
  },
};

const contentRoute: RouteDef = {
  method: 'POST',
  path: 'learn-doc/get-content',
  access: { permission: K.doc },
  summary: 'The extracted text of a document (empty while status is 0)',
  body: idOnly,
  reply: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, status: { type: 'integer' }, content: { type: 'string' }, error: { type: 'string' } } },
  handler: async (ctx) => {
    const r = await mustFind(learnDoc, ctx as RouteContext, (ctx.body as { id: number }).id);
    return { id: r.id, name: r.name, status: r.status, content: r.content, error: r.error };
  },
};

learnDoc.actions = [createRoute, learnRoute, contentRoute];
