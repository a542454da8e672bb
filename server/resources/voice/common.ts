import type { Queryable } from '../../db/db.js';
import { invalid } from '../../http/errors.js';

/** 40001 on `field` unless every id exists in `table`. */
export async function mustExistAll(db: Queryable, table: string, ids: unknown, field: string): Promise<void> {
  if (!Array.isArray(ids) || !ids.length) return;
  const r = await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE id = ANY($1::int[])`, [ids]);
  const found = new Set(r.rows.map((x) => Number(x.id)));
  const missing = (ids as number[]).filter((x) => !found.has(x));
  if (missing.length) throw invalid([{ field, message: `${table.replace(/_/g, ' ')} ${missing.join(', ')} does not exist / 不存在` }]);
}
