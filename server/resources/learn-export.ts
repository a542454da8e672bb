import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { RouteDef } from '../http/route.js';
import { applyFilters, Sql } from './engine/list.js';
import { listQuerySchema } from './engine/schemas.js';
import { check } from './engine/validate.js';
import type { ResourceDef } from './engine/types.js';
import { K } from './keys.js';

const BATCH = 2000;
const COLUMNS = ['id', 'shop_id', 'shop_name', 'channel', 'source_type', 'subject', 'question', 'answer', 'status', 'ticket_learn', 'remark', 'created_at'] as const;
type ExportRow = Record<(typeof COLUMNS)[number], unknown>;

/** RFC 4180 field; formula-looking cells are prefixed with ' (CSV injection). */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Reads the filtered rows in id order, BATCH at a time (keyset: `id < last`), so memory stays
 * flat for any size and each query is short (PGlite serves other requests between batches).
 */
async function* batches(def: ResourceDef, db: import('../db/db.js').Queryable, filters: Record<string, unknown>): AsyncGenerator<ExportRow[]> {
  let last = 2147483647;
  for (;;) {
    const sql = new Sql();
    applyFilters(def, filters, sql);
    sql.where.push(`t.id < ${sql.p(last)}`);
    const r = await db.query<ExportRow>(
      `SELECT t.id, t.shop_id, (SELECT s.name FROM shop s WHERE s.id = t.shop_id) AS shop_name, t.channel, t.source_type,
              t.subject, t.question, t.answer, t.status, t.ticket_learn, t.remark, t.created_at
         FROM ${def.table} t${sql.whereSql} ORDER BY t.id DESC LIMIT ${BATCH}`,
      sql.params,
    );
    if (!r.rows.length) return;
    yield r.rows;
    if (r.rows.length < BATCH) return;
    last = r.rows[r.rows.length - 1].id as number;
  }
}

/** `POST learn-material/export`: the list filters in the body, plus `format` csv (default) or xlsx. */
export function exportRoute(def: ResourceDef): RouteDef {
  const q = listQuerySchema(def);
  const { page: _p, page_size: _s, sort_by: _b, sort_order: _o, ...filters } = q.properties as Record<string, unknown>;
  const bodySchema = {
    type: 'object',
    additionalProperties: false,
    properties: { ...filters, format: { type: 'string', enum: ['csv', 'xlsx'], default: 'csv' } },
  };
  return {
    method: 'POST',
    path: `${def.name}/export`,
    access: { permission: K.materialExport },
    summary: 'Download the filtered materials as CSV or XLSX (streamed, any size)',
    body: bodySchema,
    raw: 'stream',
    handler: async ({ db, req, reply }) => {
      const body = check<Record<string, unknown>>(bodySchema, { ...((req.body as object) ?? {}) });
      const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
      const rows = batches(def, db, body);
      if (body.format === 'xlsx') {
        const out = new PassThrough();
        reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="learn-material-${stamp}.xlsx"`);
        void writeXlsx(rows, out).catch((err: Error) => out.destroy(err));
        return reply.send(out);
      }
      async function* csv() {
        yield '\uFEFF' + COLUMNS.join(',') + '\r\n';
        for await (const b of rows) yield b.map((r) => COLUMNS.map((c) => csvCell(r[c])).join(',')).join('\r\n') + '\r\n';
      }
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="learn-material-${stamp}.csv"`);
      return reply.send(Readable.from(csv()));
    },
  };
}

async function writeXlsx(rows: AsyncGenerator<ExportRow[]>, out: PassThrough): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const ws = wb.addWorksheet('materials');
  ws.columns = COLUMNS.map((c) => ({ header: c, key: c, width: c === 'question' || c === 'answer' ? 60 : 16 }));
  for await (const batch of rows) {
    for (const r of batch) ws.addRow(COLUMNS.map((c) => (r[c] instanceof Date ? (r[c] as Date).toISOString() : r[c]))).commit();
    // back-pressure: wait while the client is slower than the database
    if (out.writableNeedDrain) await new Promise((res) => out.once('drain', res));
  }
  ws.commit();
  await wb.commit();
}
