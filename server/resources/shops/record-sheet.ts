/**
 * The sheets of the record import (record-import.ts): the columns of an order, chat-session and
 * mail-thread file (keys and titles in both languages), the template, and how a file's rows
 * become the ingestion API's records and its results come back to the rows.
 */
import type { FieldError } from '../../../src/contract/codes.js';
import { invalid } from '../../http/errors.js';
import { pickLang, type Lang } from '../../http/lang.js';
import type { ingestBatch } from '../../ingest/ingest.js';
import type { RecordImportRow } from '../../../src/contract/replies/imports.js';
import type { Cells } from '../engine/sheet.js';
import { headerProblems, readSheetRows, type UploadedFile } from '../engine/upload.js';

export const RECORD_IMPORT_MAX_ROWS = 10_000;

type ColType = 'string' | 'integer' | 'number' | 'date';
export interface Column {
  key: string;
  en: string;
  zh: string;
  type: ColType;
  /** required in the file's header (shop_id may instead come from the form) */
  required?: boolean;
  /** a message column of a session file */
  message?: boolean;
}

export const ORDER_COLUMNS: Column[] = [
  { key: 'external_id', en: 'External ID', zh: '外部订单ID', type: 'string', required: true },
  { key: 'shop_id', en: 'Shop ID', zh: '店铺ID', type: 'integer', required: true },
  { key: 'name', en: 'Order name', zh: '订单号', type: 'string', required: true },
  { key: 'email', en: 'Email', zh: '邮箱', type: 'string', required: true },
  { key: 'customer_name', en: 'Customer name', zh: '客户姓名', type: 'string' },
  { key: 'amount', en: 'Amount', zh: '金额', type: 'number', required: true },
  { key: 'currency', en: 'Currency', zh: '币种', type: 'string' },
  { key: 'financial_status', en: 'Financial status', zh: '支付状态', type: 'string', required: true },
  { key: 'fulfillment_status', en: 'Fulfillment status', zh: '发货状态', type: 'string', required: true },
  { key: 'tracking_company', en: 'Tracking company', zh: '物流公司', type: 'string' },
  { key: 'tracking_number', en: 'Tracking number', zh: '物流单号', type: 'string' },
  { key: 'created_at', en: 'Created at', zh: '下单时间', type: 'date', required: true },
];

export const SESSION_COLUMNS: Column[] = [
  { key: 'external_id', en: 'Session external ID', zh: '会话外部ID', type: 'string', required: true },
  { key: 'shop_id', en: 'Shop ID', zh: '店铺ID', type: 'integer', required: true },
  { key: 'customer_name', en: 'Customer name', zh: '客户姓名', type: 'string' },
  { key: 'customer_email', en: 'Customer email', zh: '客户邮箱', type: 'string' },
  { key: 'channel', en: 'Channel', zh: '渠道', type: 'string' },
  { key: 'country_code', en: 'Country code', zh: '国家代码', type: 'string' },
  { key: 'started_at', en: 'Started at', zh: '开始时间', type: 'date', required: true },
  { key: 'ended_at', en: 'Ended at', zh: '结束时间', type: 'date' },
  { key: 'msg_type', en: 'Message type', zh: '消息类型', type: 'integer', required: true, message: true },
  { key: 'sender', en: 'Sender', zh: '发送方', type: 'string', message: true },
  { key: 'content', en: 'Content', zh: '内容', type: 'string', message: true },
  { key: 'sent_at', en: 'Sent at', zh: '发送时间', type: 'date', required: true, message: true },
];

export const MAIL_COLUMNS: Column[] = [
  { key: 'external_id', en: 'Thread external ID', zh: '邮件会话外部ID', type: 'string', required: true },
  { key: 'shop_id', en: 'Shop ID', zh: '店铺ID', type: 'integer', required: true },
  { key: 'subject', en: 'Thread subject', zh: '会话主题', type: 'string' },
  { key: 'customer_email', en: 'Customer email', zh: '客户邮箱', type: 'string' },
  { key: 'direction_type', en: 'Direction type', zh: '邮件方向', type: 'integer', required: true, message: true },
  { key: 'from_addr', en: 'From', zh: '发件人', type: 'string', message: true },
  { key: 'to_addr', en: 'To', zh: '收件人', type: 'string', message: true },
  { key: 'mail_subject', en: 'Mail subject', zh: '邮件主题', type: 'string', message: true },
  { key: 'body', en: 'Body', zh: '正文', type: 'string', message: true },
  { key: 'is_read', en: 'Read (0/1)', zh: '已读 (0/1)', type: 'integer', message: true },
  { key: 'is_ai', en: 'AI (0/1)', zh: 'AI 生成 (0/1)', type: 'integer', message: true },
  { key: 'has_attachment', en: 'Attachment (0/1)', zh: '有附件 (0/1)', type: 'integer', message: true },
  { key: 'sent_at', en: 'Sent at', zh: '发送时间', type: 'date', required: true, message: true },
];

/** a row of the import's report (src/contract/replies/imports.ts) */
type RowResult = RecordImportRow;

const norm = (h: string) => h.trim().toLowerCase().replace(/\s+/g, ' ');

/** header cell → column key; the keys and both languages' titles are accepted */
function headerMap(columns: Column[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const c of columns) for (const name of [c.key, c.en, c.zh]) m.set(norm(name), c.key);
  return m;
}

/** an XLSX date cell reads as Date#toString(); anything else is kept for the record check to judge */
const JS_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT/;

/** A cell as the record schema wants it: empty → absent; numbers only when they read as one (else the check names the field). */
function cellValue(c: Column, v: string | undefined): unknown {
  if (v === undefined || v === '') return undefined;
  if (c.type === 'integer') return /^-?\d{1,15}$/.test(v) ? Number(v) : v;
  if (c.type === 'number') return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  if (c.type === 'date' && JS_DATE.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? v : new Date(t).toISOString();
  }
  return v;
}

/** The template: one header row of titles in `lang` (the keys when the caller names none). */
export function templateCsv(columns: Column[], lang: Lang | null): string {
  const title = (c: Column) => (lang === 'zh-CN' ? c.zh : lang === 'en-US' ? c.en : c.key);
  return `\uFEFF${columns.map(title).join(',')}\r\n`;
}

export interface Upload {
  file: UploadedFile;
  shopId?: number;
}

/** The file's rows with their headers mapped to column keys; the whole-file checks. */
export async function readRows(up: Upload, columns: Column[]): Promise<Cells[]> {
  const raw = await readSheetRows(up.file, RECORD_IMPORT_MAX_ROWS);
  const map = headerMap(columns);
  const headers = Object.keys(raw[0]);
  const unknown = headers.filter((h) => h && !map.has(norm(h)));
  const present = new Set(headers.map((h) => map.get(norm(h))).filter(Boolean));
  const missing = columns.filter((c) => c.required && !present.has(c.key) && !(c.key === 'shop_id' && up.shopId)).map((c) => c.key);
  const problems = headerProblems(missing, unknown);
  if (problems.length) throw invalid([{ field: 'file', message: problems.join('; ') }]);
  return raw.map((r) => {
    const out: Cells = {};
    for (const [h, v] of Object.entries(r)) {
      const key = map.get(norm(h));
      if (key) out[key] = v;
    }
    return out;
  });
}

function recordOf(cells: Cells, columns: Column[], shopId: number | undefined): Record<string, unknown> {
  const rec: Record<string, unknown> = {};
  for (const c of columns) {
    const v = cellValue(c, cells[c.key]);
    if (v !== undefined) rec[c.key] = v;
  }
  if (rec.shop_id === undefined && shopId) rec.shop_id = shopId;
  return rec;
}

export interface Mapped {
  records: unknown[];
  /** for each record, the file rows it came from (index into the rows) */
  rowsOf: number[][];
  /** rows rejected before the record check (e.g. a session row without its id) */
  early: Map<number, FieldError[]>;
}

export function orderRecords(rows: Cells[], shopId?: number): Mapped {
  return { records: rows.map((r) => recordOf(r, ORDER_COLUMNS, shopId)), rowsOf: rows.map((_, i) => [i]), early: new Map() };
}

/**
 * One record per (shop_id, external_id), its messages (`list`: `messages` / `mails`) in file
 * order; the thread's own fields from the group's first row that has them. `rename` maps a file
 * column to the message field it fills (a mail's own subject is `mail_subject` in the file).
 */
export function groupedRecords(columns: Column[], list: string, rename: Record<string, string> = {}) {
  const headCols = columns.filter((c) => !c.message);
  const itemCols = columns.filter((c) => c.message);
  return (rows: Cells[], shopId?: number): Mapped => {
    const groups = new Map<string, { rec: Record<string, unknown>; rows: number[] }>();
    const early = new Map<number, FieldError[]>();
    rows.forEach((cells, i) => {
      const head = recordOf(cells, headCols, shopId);
      if (typeof head.external_id !== 'string') {
        early.set(i, [{ field: 'external_id', message: 'is required / 必填' }]);
        return;
      }
      const key = `${String(head.shop_id)}\u0000${head.external_id}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { rec: { ...head, [list]: [] }, rows: [] }));
      else for (const [k, v] of Object.entries(head)) if (g.rec[k] === undefined) g.rec[k] = v;
      g.rows.push(i);
      const item = recordOf(cells, itemCols, undefined);
      for (const [from, to] of Object.entries(rename)) {
        if (from in item) {
          item[to] = item[from];
          delete item[from];
        }
      }
      (g.rec[list] as unknown[]).push(item);
    });
    const all = [...groups.values()];
    return { records: all.map((g) => g.rec), rowsOf: all.map((g) => g.rows), early };
  };
}

/** `messages.3.content` / `mails.0.sent_at` (ajv's path, server/plugins/errors.ts) → message 3, field `content` */
const MESSAGE_FIELD = /^(?:messages|mails)\.(\d+)(?:\.(.+))?$/;

/**
 * The batch's results spread over the rows: every row of a record gets its status; an error on
 * one message goes to that message's row (its field named plainly), an error on the session to
 * every row of it.
 */
export function rowResults(m: Mapped, out: Awaited<ReturnType<typeof ingestBatch>>, lang: Lang | null): RowResult[] {
  const rows: RowResult[] = [];
  const tr = (e: FieldError): FieldError => ({ field: e.field, message: lang ? pickLang(e.message, lang) : e.message });
  for (const [i, errors] of m.early) rows.push({ row: i + 2, external_id: null, status: 'rejected', id: null, errors: errors.map(tr) });
  for (const r of out.results) {
    const fileRows = m.rowsOf[r.index];
    if (r.status !== 'rejected') {
      for (const i of fileRows) rows.push({ row: i + 2, external_id: r.external_id, status: r.status, id: r.id });
      continue;
    }
    const perRow = new Map<number, FieldError[]>(fileRows.map((i) => [i, []]));
    for (const e of r.errors ?? []) {
      const hit = MESSAGE_FIELD.exec(e.field);
      if (hit && fileRows[Number(hit[1])] !== undefined) perRow.get(fileRows[Number(hit[1])])!.push(tr({ ...e, field: hit[2] === 'subject' ? 'mail_subject' : (hit[2] ?? e.field) }));
      else for (const list of perRow.values()) list.push(tr(e));
    }
    for (const i of fileRows) {
      const errors = perRow.get(i)!;
      // a message row without a problem of its own still goes with its session
      if (!errors.length) errors.push({ field: 'external_id', message: tr({ field: '', message: 'another row of this session was rejected / 该会话的其他行被拒绝' }).message });
      rows.push({ row: i + 2, external_id: r.external_id, status: 'rejected', id: null, errors });
    }
  }
  return rows.sort((a, b) => a.row - b.row);
}

