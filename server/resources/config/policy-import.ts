import { Type } from '@sinclair/typebox';
import type { RouteDef } from '../../http/route.js';
import { CHANNELS } from '../enums.js';
import { F } from '../engine/fields.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { mustExist } from '../engine/refs.js';
import { check } from '../engine/validate.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';
import { checkHeader, readSheetRows, readUpload } from '../engine/upload.js';

export const POLICY_IMPORT_MAX_ROWS = 5000;
const KNOWN = ['title', 'content', 'channel'];


/** operationsTools/policyImport: the log of imports (one row per file). */
export const policyImportLog: ResourceDef = {
  name: 'policy-import',
  auditName: 'policy_import',
  table: 'policy_import_log',
  keywordIds: ['id', 'shop_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), readOnly: true },
    shop_name: F.shopName(),
    file_name: { ...F.str(255), readOnly: true },
    total: { schema: { type: 'integer' }, readOnly: true },
    imported: { schema: { type: 'integer' }, readOnly: true },
    failed: { schema: { type: 'integer' }, readOnly: true },
    imported_by: { schema: { type: 'string' }, readOnly: true },
    created_at: F.createdAt(),
  },
  operations: { list: { permission: SK.policyImport } },
};

const FIELDS = Type.Object({ shop_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }, { additionalProperties: false });

/**
 * `policy-import/import`: multipart `file` (CSV / XLSX with title, content and optionally channel)
 * and `shop_id`. A file failing as a whole writes nothing (40001); otherwise valid rows become
 * policies of the shop (source type 1, operator), invalid rows are reported, in one transaction.
 */
const importRoute: RouteDef = {
  method: 'POST',
  path: 'policy-import/import',
  access: { permission: SK.policyImport },
  summary: 'Import policies into a shop from a CSV or XLSX file (title, content, channel)',
  reply: Type.Object({
    shop_id: Type.Integer(),
    file_name: Type.String(),
    total: Type.Integer(),
    imported: Type.Integer(),
    failed: Type.Integer(),
    failed_rows: Type.Array(Type.Object({ row: Type.Integer(), reason: Type.String() })),
  }),
  raw: 'multipart',
  handler: async (ctx) => {
    const { file, fields } = await readUpload(ctx);
    const form = check(FIELDS, fields);
    const rows = await readSheetRows(file, POLICY_IMPORT_MAX_ROWS);
    checkHeader(Object.keys(rows[0]), ['title', 'content'], KNOWN);
    await mustExist(ctx.db, 'shop', form.shop_id, 'shop_id');
    const result = await inRawTx(ctx, async (tx) => {
      const failed: Array<{ row: number; reason: string }> = [];
      let imported = 0;
      for (const [i, r] of rows.entries()) {
        const channel = r.channel || 'chat';
        const reason =
          !r.title ? 'title is empty'
          : r.title.length > 200 ? 'title is longer than 200 characters'
          : !r.content ? 'content is empty'
          : r.content.length > 20000 ? 'content is longer than 20000 characters'
          : !(CHANNELS as readonly string[]).includes(channel) ? 'channel must be chat or email'
          : null;
        if (reason) { failed.push({ row: i + 2, reason }); continue; }
        await tx.db.query(`INSERT INTO policy (shop_id, title, content, source_type, channel) VALUES ($1, $2, $3, 1, $4)`, [form.shop_id, r.title, r.content, channel]);
        imported++;
      }
      const summary = { shop_id: form.shop_id, file_name: file.name.slice(0, 255), total: rows.length, imported, failed: failed.length };
      const log = await tx.db.query<{ id: number }>(
        `INSERT INTO policy_import_log (shop_id, file_name, total, imported, failed, imported_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [form.shop_id, summary.file_name, summary.total, imported, failed.length, ctx.user?.email ?? ''],
      );
      await tx.audit({ action: 'import', resource: 'policy', targetId: form.shop_id, after: { ...summary, log_id: log.rows[0].id } });
      return { ...summary, failed_rows: failed };
    });
    return sendOk(ctx.reply, result);
  },
};

policyImportLog.actions = [importRoute];
