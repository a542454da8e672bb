import type { Queryable } from '../../db/db.js';
import { invalid } from '../../http/errors.js';

/** 40001 on `field` unless a row with that id exists in `table`. */
export async function mustExist(db: Queryable, table: 'shop' | 'merchant_user' | 'plan' | 'learn_material' | 'policy', id: unknown, field: string): Promise<void> {
  if (id === undefined || id === null) return;
  const r = await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
  if (!r.rows.length) throw invalid([{ field, message: `${table.replace('_', ' ')} ${String(id)} does not exist / 关联的记录不存在` }]);
}
