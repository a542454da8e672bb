/**
 * Replacing a session's messages (or a thread's mails) on re-ingestion without breaking what
 * points at them: the rows are matched by position (the n-th message of the batch is the n-th
 * stored one, in id order), so a message that is still there keeps its id — and the marks and
 * feedback that name it stay attached. Rows past the new count are deleted, and the references
 * to them are cleared (set to null, never left dangling); new rows past the old count are
 * inserted. Table and column names come from this file's callers, never from input.
 */
import type { Queryable } from '../db/db.js';

export interface ChildColumn {
  name: string;
  /** the PostgreSQL array element type used with unnest, e.g. 'text', 'smallint', 'timestamptz' */
  type: string;
}

export interface ChildRows {
  table: string;
  /** the column naming the parent row */
  parentColumn: string;
  columns: ChildColumn[];
  /** one array of values per column, each as long as the number of rows */
  values: unknown[][];
  /** columns elsewhere that hold this table's ids */
  references: { table: string; column: string }[];
}

export async function replaceChildren(q: Queryable, parentId: number, spec: ChildRows): Promise<void> {
  const count = spec.values[0]?.length ?? 0;
  const old = (await q.query<{ id: number }>(`SELECT id FROM ${spec.table} WHERE ${spec.parentColumn} = $1 ORDER BY id`, [parentId])).rows.map(
    (r) => Number(r.id),
  );
  const surplus = old.slice(count);
  if (surplus.length) {
    for (const ref of spec.references) {
      await q.query(`UPDATE ${ref.table} SET ${ref.column} = NULL WHERE ${ref.column} = ANY($1::int[])`, [surplus]);
    }
    await q.query(`DELETE FROM ${spec.table} WHERE id = ANY($1::int[])`, [surplus]);
  }
  const kept = old.slice(0, count);
  const names = spec.columns.map((c) => c.name);
  const unnest = (from: number) => spec.columns.map((c, i) => `$${i + from}::${c.type}[]`).join(', ');
  if (kept.length) {
    await q.query(
      `UPDATE ${spec.table} AS t SET ${names.map((c) => `${c} = u.${c}`).join(', ')}
       FROM unnest($1::int[], ${unnest(2)}) AS u(id, ${names.join(', ')})
       WHERE t.id = u.id`,
      [kept, ...spec.values.map((v) => v.slice(0, kept.length))],
    );
  }
  if (count > old.length) {
    await q.query(
      `INSERT INTO ${spec.table} (${spec.parentColumn}, ${names.join(', ')})
       SELECT $1, * FROM unnest(${unnest(2)})`,
      [parentId, ...spec.values.map((v) => v.slice(old.length))],
    );
  }
}
