/**
 * The learn-material export file (learn-export.ts streams it, learn-export-job.ts writes it in
 * chunks): its columns, titled and labelled in the export's language, as CSV or XLSX, read from
 * the database in keyset batches so memory stays flat for any size.
 */
import type { PassThrough } from 'node:stream';
import type { Queryable } from '../../db/db.js';
import { applyFilters, Sql } from '../engine/list.js';
import type { ResourceDef } from '../engine/types.js';
import { MATERIAL_STATUS, POLICY_SOURCE_TYPES, TICKET_LEARN, type Labelled } from '../enums.js';

const BATCH = 2000;
const COLUMNS = ['id', 'shop_id', 'shop_name', 'channel', 'source_type', 'subject', 'question', 'answer', 'status', 'ticket_learn', 'remark', 'created_at'] as const;
type ExportRow = Record<(typeof COLUMNS)[number], unknown>;
export type Lang = '' | 'zh-CN' | 'en-US';
export const EXPORT_KIND = 'export.learn_material';
/** how long a finished export can be downloaded (the spec's export timeout) */
export const EXPORT_TTL_MS = 24 * 3_600_000;
const TITLES: Record<(typeof COLUMNS)[number], [string, string]> = {
  id: ['ID', 'ID'],
  shop_id: ['店铺 ID', 'Shop ID'],
  shop_name: ['店铺', 'Shop'],
  channel: ['渠道', 'Channel'],
  source_type: ['来源', 'Source'],
  subject: ['主题', 'Subject'],
  question: ['问题', 'Question'],
  answer: ['答案', 'Answer'],
  status: ['状态', 'Status'],
  ticket_learn: ['工单学习', 'Ticket learning'],
  remark: ['备注', 'Remark'],
  created_at: ['创建时间', 'Created at'],
};

const CHANNEL_LABELS: Labelled<string>[] = [
  { id: 'chat', label: '聊天', label_en: 'Chat' },
  { id: 'email', label: '邮件', label_en: 'Email' },
];
const ENUMS: Partial<Record<(typeof COLUMNS)[number], Labelled<string | number>[]>> = {
  channel: CHANNEL_LABELS,
  source_type: POLICY_SOURCE_TYPES,
  status: MATERIAL_STATUS,
  ticket_learn: TICKET_LEARN,
};

const headerOf = (lang: Lang): string[] => COLUMNS.map((c) => (lang ? TITLES[c][lang === 'zh-CN' ? 0 : 1] : c));

/** A row's cells in column order: enum values as labels in `lang`, dates as ISO 8601. */
function cellsOf(r: ExportRow, lang: Lang): unknown[] {
  return COLUMNS.map((c) => {
    const v = r[c];
    if (v instanceof Date) return v.toISOString();
    const labels = lang ? ENUMS[c] : undefined;
    if (labels) {
      const hit = labels.find((l) => String(l.id) === String(v));
      if (hit) return lang === 'zh-CN' ? hit.label : hit.label_en;
    }
    return v;
  });
}

/** RFC 4180 field; formula-looking cells are prefixed with ' (CSV injection). */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvHeader = (lang: Lang) => '\uFEFF' + headerOf(lang).map(csvCell).join(',') + '\r\n';
export const csvLines = (rows: ExportRow[], lang: Lang) => rows.map((r) => cellsOf(r, lang).map(csvCell).join(',')).join('\r\n') + '\r\n';

/**
 * Reads the filtered rows in id order, BATCH at a time (keyset: `id < last`), so memory stays
 * flat for any size and each query is short (PGlite serves other requests between batches).
 */
export async function* batches(def: ResourceDef, db: Queryable, filters: Record<string, unknown>, below = 2147483647): AsyncGenerator<ExportRow[]> {
  let last = below;
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

/** How many rows the filters select (for the job's progress). */
export async function countRows(def: ResourceDef, db: Queryable, filters: Record<string, unknown>): Promise<number> {
  const sql = new Sql();
  applyFilters(def, filters, sql);
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${def.table} t${sql.whereSql}`, sql.params)).rows[0].n;
}

/** XLSX of the rows into `out` (streamed: ExcelJS's streaming writer, flat memory). */
export async function writeXlsx(rows: AsyncIterable<ExportRow[]>, out: PassThrough, lang: Lang, onBatch?: (n: number) => Promise<void>): Promise<void> {
  // loaded with the first export, not at start (exceljs is one of the heaviest imports: docs/performance.md)
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const ws = wb.addWorksheet(lang === 'zh-CN' ? '学习素材' : 'materials');
  const header = headerOf(lang);
  ws.columns = COLUMNS.map((c, i) => ({ header: header[i], key: c, width: c === 'question' || c === 'answer' ? 60 : 16 }));
  for await (const batch of rows) {
    for (const r of batch) ws.addRow(cellsOf(r, lang)).commit();
    // back-pressure: wait while the reader is slower than the database
    if (out.writableNeedDrain) await new Promise((res) => out.once('drain', res));
    await onBatch?.(batch.length);
  }
  ws.commit();
  await wb.commit();
}

