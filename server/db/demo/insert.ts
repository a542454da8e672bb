import type { Queryable } from '../db.js';

/** Multi-row INSERT in batches (parameterised), returning the new ids in order. */
export async function insertMany(db: Queryable, table: string, cols: string[], rows: unknown[][], batch = 500): Promise<number[]> {
  const ids: number[] = [];
  const size = Math.max(1, Math.min(batch, Math.floor(60000 / cols.length)));
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    const params: unknown[] = [];
    const values = chunk.map((r) => `(${r.map((v) => `$${params.push(v)}`).join(', ')})`).join(', ');
    const res = await db.query<{ id: number }>(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values} RETURNING id`, params);
    ids.push(...res.rows.map((x) => x.id));
  }
  return ids;
}

/** Same, for tables without an id column. */
export async function insertRows(db: Queryable, table: string, cols: string[], rows: unknown[][], batch = 500): Promise<void> {
  const size = Math.max(1, Math.min(batch, Math.floor(60000 / cols.length)));
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    const params: unknown[] = [];
    const values = chunk.map((r) => `(${r.map((v) => `$${params.push(v)}`).join(', ')})`).join(', ');
    await db.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values}`, params);
  }
}
