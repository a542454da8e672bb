import { Type } from '@sinclair/typebox';
import type { RouteDef } from '../../http/route.js';
import { ProductImportRows, type ProductImportFailure } from '../../../src/contract/replies/imports.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { checkHeader, importCounts, readSheetRows, readUpload } from '../engine/upload.js';
import { mustExist } from '../engine/refs.js';
import { check } from '../engine/validate.js';
import type { Permission, ResourceDef } from '../engine/types.js';

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20000;
const REQUIRED = ['product_id', 'title'] as const;
const KNOWN = ['shop_id', 'product_id', 'title', 'price', 'policy', 'remark'];

type Failure = ProductImportFailure;

/** a row of the file that was not imported, and why */

/**
 * `import-product`: multipart `file` (CSV or XLSX, header row with product_id, title and optionally
 * shop_id, price, policy, remark) and an optional `shop_id` field used when the file has no
 * shop_id column. A file that fails as a whole (unreadable, no rows, missing columns, too many
 * rows) writes nothing (40001). Otherwise each row is imported, skipped (already exists / repeated
 * in the file) or failed with its reason, in one transaction with one audit row.
 */
export function importRoute(def: ResourceDef, permission: Permission): RouteDef {
  const fieldsSchema = Type.Object({ shop_id: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false });
  return {
    method: 'POST',
    path: `${def.name}/import-product`,
    access: { permission },
    summary: 'Import products from a CSV or XLSX file; reports imported / skipped / failed rows',
    reply: Type.Object({
      ...importCounts,
      ...ProductImportRows,
    }),
    raw: 'multipart',
    handler: async (ctx) => {
      const { file, fields } = await readUpload(ctx, IMPORT_MAX_BYTES);
      const form = check(fieldsSchema, fields);
      const rows = await readSheetRows(file, IMPORT_MAX_ROWS);
      const cols = Object.keys(rows[0]);
      checkHeader(cols, form.shop_id ? REQUIRED : [...REQUIRED, 'shop_id'], KNOWN);

      const result = await inRawTx(ctx, async (tx) => {
        if (form.shop_id) await mustExist(tx.db, 'shop', form.shop_id, 'shop_id');
        const failed: Failure[] = [];
        const skipped: Failure[] = [];
        const seen = new Set<string>();
        const shopOk = new Map<number, boolean>();
        let imported = 0;
        for (const [i, r] of rows.entries()) {
          const rowNo = i + 2; // header is row 1
          const pid = r.product_id ?? '';
          const shopId = r.shop_id ? Number(r.shop_id) : form.shop_id;
          const price = r.price ? Number(r.price) : 0;
          const reason =
            !pid ? 'product_id is empty'
            : !/^[A-Za-z0-9_-]{1,60}$/.test(pid) ? 'product_id must be 1-60 letters, digits, _ or -'
            : !r.title ? 'title is empty'
            : r.title.length > 300 ? 'title is longer than 300 characters'
            : !Number.isInteger(shopId) || (shopId as number) < 1 ? 'shop_id is not a valid id'
            : !Number.isFinite(price) || price < 0 || price > 9999999999 ? 'price is not a valid amount'
            : (r.policy ?? '').length > 20000 ? 'policy is longer than 20000 characters'
            : (r.remark ?? '').length > 1000 ? 'remark is longer than 1000 characters'
            : null;
          if (reason) { failed.push({ row: rowNo, product_id: pid, reason }); continue; }
          if (!shopOk.has(shopId!)) {
            const s = await tx.db.query(`SELECT 1 FROM shop WHERE id = $1`, [shopId]);
            shopOk.set(shopId!, s.rows.length > 0);
          }
          if (!shopOk.get(shopId!)) { failed.push({ row: rowNo, product_id: pid, reason: `shop ${shopId} does not exist` }); continue; }
          const key = `${shopId}:${pid}`;
          if (seen.has(key)) { skipped.push({ row: rowNo, product_id: pid, reason: 'repeated in the file' }); continue; }
          seen.add(key);
          const ins = await tx.db.query(
            `INSERT INTO douyin_product (shop_id, product_id, title, price, policy, remark) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (shop_id, product_id) DO NOTHING RETURNING id`,
            [shopId, pid, r.title, price, r.policy ?? '', r.remark ?? ''],
          );
          if (ins.rows.length) imported++;
          else skipped.push({ row: rowNo, product_id: pid, reason: 'already exists' });
        }
        const summary = { file: file!.name, total: rows.length, imported, skipped: skipped.length, failed: failed.length };
        await tx.audit({ action: 'import', resource: def.auditName ?? def.name, targetId: null, after: summary });
        return { ...summary, skipped_rows: skipped, failed_rows: failed };
      });
      return sendOk(ctx.reply, result);
    },
  };
}
