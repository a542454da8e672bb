/**
 * Seeing what a call wrote, on PGlite and PostgreSQL alike:
 *
 * - `tableChecksums(db)`: one md5 per table of the app's schema (every row as text, order-free),
 *   compared before and after refused calls ("every table unchanged");
 * - `installWriteLog(db)`: a row trigger on every table of the app's schema that adds a row to
 *   `suite_write_log` in the writer's own transaction, so only committed writes stay logged;
 *   a refused call that leaves a log row is a partial write. One cheap `max(id)` per call
 *   instead of a checksum of every table.
 */
import type { Queryable } from '../../../server/db/db.js';

export async function appTables(db: Queryable): Promise<string[]> {
  const r = await db.query<{ t: string }>(
    `SELECT table_name AS t FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'suite_write_log'
     ORDER BY table_name`,
  );
  return r.rows.map((x) => x.t);
}

const ident = (t: string) => `"${t.replace(/"/g, '""')}"`;

/** table → md5 of its rows (every table of the app's schema but `skip`) */
export async function tableChecksums(db: Queryable, skip: string[] = []): Promise<Record<string, string>> {
  const tables = (await appTables(db)).filter((t) => !skip.includes(t));
  const parts = tables.map(
    (t) => `SELECT '${t.replace(/'/g, "''")}' AS t, (SELECT coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') FROM ${ident(t)} x) AS h`,
  );
  const r = await db.query<{ t: string; h: string }>(parts.join(' UNION ALL '));
  return Object.fromEntries(r.rows.map((x) => [x.t, x.h]));
}

/** names of the tables whose checksum differs */
export const changedTables = (a: Record<string, string>, b: Record<string, string>): string[] =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((t) => a[t] !== b[t]).sort();

export interface WriteLog {
  /** the id of the newest committed write */
  mark(): Promise<number>;
  /** the writes committed after `mark` (table and operation) */
  since(mark: number): Promise<Array<{ tbl: string; op: string }>>;
}

export async function installWriteLog(db: Queryable): Promise<WriteLog> {
  await db.query(`CREATE TABLE IF NOT EXISTS suite_write_log (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL)`);
  await db.query(`CREATE OR REPLACE FUNCTION suite_write_log_row() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO suite_write_log (tbl, op) VALUES (TG_TABLE_NAME, TG_OP);
      RETURN NULL;
    END $fn$`);
  for (const t of await appTables(db)) {
    await db.query(`DROP TRIGGER IF EXISTS suite_write_log ON ${ident(t)}`);
    await db.query(`CREATE TRIGGER suite_write_log AFTER INSERT OR UPDATE OR DELETE ON ${ident(t)} FOR EACH ROW EXECUTE FUNCTION suite_write_log_row()`);
    await db.query(`DROP TRIGGER IF EXISTS suite_write_log_truncate ON ${ident(t)}`);
    await db.query(`CREATE TRIGGER suite_write_log_truncate AFTER TRUNCATE ON ${ident(t)} FOR EACH STATEMENT EXECUTE FUNCTION suite_write_log_row()`);
  }
  return {
    async mark() {
      const r = await db.query<{ id: string | number | null }>(`SELECT max(id) AS id FROM suite_write_log`);
      return Number(r.rows[0].id ?? 0);
    },
    async since(mark) {
      const r = await db.query<{ tbl: string; op: string }>(`SELECT tbl, op FROM suite_write_log WHERE id > $1 ORDER BY id LIMIT 50`, [mark]);
      return r.rows;
    },
  };
}
