import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from './typebox.js';

/**
 * The per-row reports of the file imports, declared once: the server's reply schemas
 * (server/resources/shops/record-import.ts, server/resources/learning/douyin-import.ts) and the
 * console's import report (src/runtime/actions.ts `importReport`).
 */
const int = Type.Integer();
const FieldProblem = Type.Object({ field: Type.String(), message: Type.String() });

/** a row of the order / session / mail import's report */
export const RecordImportRow = Type.Object({
  row: Type.Integer({ description: 'row number in the file, the header being row 1' }),
  external_id: Nullable(Type.String()),
  status: StringEnum(['created', 'updated', 'unchanged', 'rejected']),
  id: Nullable(int),
  errors: Type.Optional(Type.Array(FieldProblem)),
});

/** `POST order/import`, `session/import`, `mail-session/import` */
export const RecordImportReply = Type.Object({
  file: Type.String(),
  total: Type.Integer({ description: 'data rows in the file' }),
  records: Type.Integer({ description: 'orders, or sessions (rows grouped by external id)' }),
  created: int,
  updated: int,
  unchanged: int,
  rejected: Type.Integer({ description: 'rejected rows' }),
  rows: Type.Array(RecordImportRow),
});

/** a skipped or failed row of the Douyin product import (`POST …/import-product`) */
export const ProductImportFailure = Type.Object({ row: int, product_id: Type.String(), reason: Type.String() });
/** the rows part of the Douyin product import's reply (its counts are the uploads' common ones) */
export const ProductImportRows = { skipped_rows: Type.Array(ProductImportFailure), failed_rows: Type.Array(ProductImportFailure) };

export type RecordImportRow = Static<typeof RecordImportRow>;
export type RecordImportReply = Static<typeof RecordImportReply>;
export type ProductImportFailure = Static<typeof ProductImportFailure>;
