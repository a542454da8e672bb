import type { RouteDef } from '../../http/route.js';
import { checkHeader, importCounts, readSheetRows, readUpload } from '../engine/upload.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { SK } from './keys.js';
import { Type } from '@sinclair/typebox';

const KNOWN = ['group', 'name', 'keywords', 'description'];
export const CATEGORY_IMPORT_MAX_ROWS = 2000;

/**
 * `session-category/item/import`: multipart `file` (CSV / XLSX, header `group, name[, keywords,
 * description]`). Groups are matched by name among the global groups (no shop) and created when
 * missing; an item already in its group (same name) is skipped. One transaction, one audit row.
 */
export const categoryImportRoute: RouteDef = {
  method: 'POST',
  path: 'session-category/item/import',
  access: { permission: [SK.category, SK.voiceCategory] },
  summary: 'Import session category items (and missing global groups) from a CSV or XLSX file',
  reply: Type.Object({
    ...importCounts,
    groups_created: Type.Integer(),
    failed_rows: Type.Array(Type.Object({ row: Type.Integer(), reason: Type.String() })),
  }),
  raw: 'multipart',
  handler: async (ctx) => {
    const { file } = await readUpload(ctx);
    const rows = await readSheetRows(file, CATEGORY_IMPORT_MAX_ROWS);
    checkHeader(Object.keys(rows[0]), ['group', 'name'], KNOWN);
    const result = await inRawTx(ctx, async (tx) => {
      const groups = new Map<string, number>();
      const failed: Array<{ row: number; reason: string }> = [];
      let imported = 0;
      let skipped = 0;
      let groupsCreated = 0;
      for (const [i, r] of rows.entries()) {
        const reason =
          !r.group ? 'group is empty'
          : r.group.length > 100 ? 'group is longer than 100 characters'
          : !r.name ? 'name is empty'
          : r.name.length > 100 ? 'name is longer than 100 characters'
          : (r.keywords ?? '').length > 500 ? 'keywords are longer than 500 characters'
          : (r.description ?? '').length > 1000 ? 'description is longer than 1000 characters'
          : null;
        if (reason) { failed.push({ row: i + 2, reason }); continue; }
        let gid = groups.get(r.group);
        if (!gid) {
          const g = await tx.db.query<{ id: number }>(`SELECT id FROM session_category_group WHERE shop_id IS NULL AND name = $1 ORDER BY id LIMIT 1`, [r.group]);
          gid = g.rows[0]?.id;
          if (!gid) {
            gid = (await tx.db.query<{ id: number }>(`INSERT INTO session_category_group (name) VALUES ($1) RETURNING id`, [r.group])).rows[0].id;
            groupsCreated++;
          }
          groups.set(r.group, gid);
        }
        const dup = await tx.db.query(`SELECT 1 FROM session_category_item WHERE group_id = $1 AND name = $2`, [gid, r.name]);
        if (dup.rows.length) { skipped++; continue; }
        await tx.db.query(`INSERT INTO session_category_item (group_id, name, keywords, description) VALUES ($1, $2, $3, $4)`, [gid, r.name, r.keywords ?? '', r.description ?? '']);
        imported++;
      }
      const summary = { file: file.name, total: rows.length, imported, skipped, failed: failed.length, groups_created: groupsCreated };
      await tx.audit({ action: 'import', resource: 'session_category_item', targetId: null, after: summary });
      return { ...summary, failed_rows: failed };
    });
    return sendOk(ctx.reply, result);
  },
};
