/**
 * CSV / XLSX import of orders and chat sessions on their console pages (issue 14). A file's rows
 * become the very records the ingestion API takes (server/ingest/records.ts) and go through the
 * same record-by-record check and upsert (`ingestBatch`), so a file and an ingestion batch with
 * the same (shop, external id) never make two rows, and a file imported twice writes nothing the
 * second time.
 *
 *   POST order/import            multipart `file` (+ optional `shop_id`): one row per order
 *   POST session/import          multipart `file` (+ optional `shop_id`): one row per message,
 *                                grouped into sessions by (shop_id, external_id), in file order
 *   GET|POST x/import-template   the CSV template: the header row in the caller's language
 *
 * Headers may be the column keys (`external_id`) or their titles in either language
 * (`External ID`, `外部ID`). The file is read by the one sheet reader (engine/sheet.ts: the CSV
 * reader stops past the row limit, an XLSX passes the zip guard and is streamed in a worker with
 * its caps). A file that fails as a whole — none, empty, wrong type, unreadable, a bomb, no data
 * rows, more than IMPORT_MAX_ROWS rows, missing or unknown columns — writes nothing (40001 on
 * `file`). Otherwise every row gets a result: created / updated / unchanged / rejected with its
 * fields, the whole import in one transaction with one audit row.
 */
import { Type } from '@sinclair/typebox';
import { requestLang } from '../../http/lang.js';
import type { RouteContext, RouteDef } from '../../http/route.js';
import { ingestBatch, type RecordStatus } from '../../ingest/ingest.js';
import { KINDS } from '../../ingest/kinds.js';
import type { IngestKind } from '../../ingest/store.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { mustExist } from '../engine/refs.js';
import type { Cells } from '../engine/sheet.js';
import { readUpload } from '../engine/upload.js';
import { check } from '../engine/validate.js';
import { K } from '../keys.js';
import { SK } from '../sessions/keys.js';
import { FileReply } from '../../http/typebox.js';
import { RecordImportReply } from '../../../src/contract/replies/imports.js';
import {
  groupedRecords,
  MAIL_COLUMNS,
  ORDER_COLUMNS,
  orderRecords,
  readRows,
  RECORD_IMPORT_MAX_ROWS,
  rowResults,
  SESSION_COLUMNS,
  templateCsv,
  type Column,
  type Mapped,
  type Upload,
} from './record-sheet.js';

const RECORD_IMPORT_MAX_BYTES = 10 * 1024 * 1024;

const kindOf = (path: string): IngestKind => KINDS.find((k) => k.path === path)!;

const UPLOAD_FIELDS = Type.Object({ shop_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) }, { additionalProperties: false });

/** The multipart body: one file (≤ 10 MB) and an optional shop_id; anything wrong is 40001 on file. */
async function readImport(ctx: RouteContext): Promise<Upload> {
  const { file, fields } = await readUpload(ctx, RECORD_IMPORT_MAX_BYTES);
  if (fields.shop_id === '' || fields.shop_id === 'undefined' || fields.shop_id === 'null') delete fields.shop_id;
  return { file, shopId: check(UPLOAD_FIELDS, fields).shop_id };
}

interface ImportSpec {
  base: string;
  kind: string;
  auditResource: string;
  permission: string;
  columns: Column[];
  map(rows: Cells[], shopId?: number): Mapped;
  what: string;
}

function importRoutes(spec: ImportSpec): RouteDef[] {
  const kind = kindOf(spec.kind);
  const template = (method: 'GET' | 'POST'): RouteDef => ({
    method,
    path: `${spec.base}/import-template`,
    access: { permission: spec.permission },
    summary: `The CSV template of the ${spec.what} import: its header row, titled in the caller's language (x-lang), the keys without one`,
    reply: FileReply('text/csv', 'the header row of the import file, as CSV'),
    raw: 'stream',
    handler: async (ctx) => {
      const lang = requestLang(ctx.req);
      const name = `${spec.base}-import-template${lang ? `-${lang}` : ''}.csv`;
      return ctx.reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(templateCsv(spec.columns, lang));
    },
  });
  const upload: RouteDef = {
    method: 'POST',
    path: `${spec.base}/import`,
    access: { permission: spec.permission },
    summary:
      `Import ${spec.what} from a CSV or XLSX file (multipart \`file\`, optional \`shop_id\` for a file without that column; at most ` +
      `${RECORD_IMPORT_MAX_ROWS} rows, 10 MB): each row checked and stored as the ingestion API does (idempotent by shop and external id); ` +
      'one result per row: created, updated, unchanged or rejected with its fields',
    raw: 'multipart',
    reply: RecordImportReply,
    handler: async (ctx) => {
      const up = await readImport(ctx);
      const rows = await readRows(up, spec.columns);
      const lang = requestLang(ctx.req);
      const result = await inRawTx(ctx, async (tx) => {
        if (up.shopId) await mustExist(tx.db, 'shop', up.shopId, 'shop_id');
        const mapped = spec.map(rows, up.shopId);
        const out = await ingestBatch(tx.db, kind, mapped.records);
        const list = rowResults(mapped, out, lang);
        const count = (st: RecordStatus) => list.filter((r) => r.status === st).length;
        const summary = {
          file: up.file.name,
          total: rows.length,
          records: mapped.records.length + mapped.early.size,
          created: count('created'),
          updated: count('updated'),
          unchanged: count('unchanged'),
          rejected: count('rejected'),
        };
        await tx.audit({
          action: 'import',
          resource: spec.auditResource,
          targetId: null,
          after: { ...summary, rejected_rows: list.filter((r) => r.status === 'rejected').slice(0, 50).map((r) => ({ row: r.row, external_id: r.external_id })) },
        });
        return { ...summary, rows: list };
      });
      return sendOk(ctx.reply, result);
    },
  };
  return [upload, template('GET'), template('POST')];
}

const ORDER_IMPORT_KEY = `${K.order}.import`;
const SESSION_IMPORT_KEY = `${SK.chat}.import`;
const MAIL_IMPORT_KEY = `${SK.mail}.import`;

export const recordImportRoutes: RouteDef[] = [
  ...importRoutes({
    base: 'order',
    kind: 'orders',
    auditResource: 'shop_order',
    permission: ORDER_IMPORT_KEY,
    columns: ORDER_COLUMNS,
    map: orderRecords,
    what: 'orders (one row per order)',
  }),
  ...importRoutes({
    base: 'session',
    kind: 'sessions',
    auditResource: 'chat_session',
    permission: SESSION_IMPORT_KEY,
    columns: SESSION_COLUMNS,
    map: groupedRecords(SESSION_COLUMNS, 'messages'),
    what: 'chat sessions (one row per message, grouped by the session external id)',
  }),
  ...importRoutes({
    base: 'mail-session',
    kind: 'mails',
    auditResource: 'mail_session',
    permission: MAIL_IMPORT_KEY,
    columns: MAIL_COLUMNS,
    map: groupedRecords(MAIL_COLUMNS, 'mails', { mail_subject: 'subject' }),
    what: 'mail threads (one row per mail, grouped by the thread external id)',
  }),
];
