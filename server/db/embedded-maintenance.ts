/**
 * Vacuum and statistics for the embedded database. PGlite runs PostgreSQL in single-user mode:
 * there is no autovacuum, so nothing ever removes dead row versions (every update and delete of
 * a queue, session or rate-limit table leaves one) and nothing gives the planner statistics (it
 * plans every table with default selectivities, however large it grew). The work engine's
 * heartbeat calls this on PGlite (server/jobs/engine.ts); PostgreSQL has its own autovacuum.
 *
 * A table is vacuumed and analyzed when it has at least MIN_PAGES pages and more than twice the
 * pages it had at its last vacuum or analyze (or never had either): dead versions are reclaimed
 * before a table doubles, and statistics are never taken at less than half its size. Pages, not
 * the cumulative statistics' counters, which PGlite does not keep (they stay 0); a file's size
 * costs nothing to read. VACUUM runs in this thread like every PGlite query: one table at a time,
 * so the API waits at most one table's vacuum (the query wrapper yields between queries).
 */
import type { SqlDb } from './sql-db.js';

export const MIN_PAGES = 16;
const GROWTH = 2;

interface TableSize {
  rel: string;
  pages: number;
  /** pages at the last vacuum or analyze (relpages) */
  seen: number;
  /** never vacuumed nor analyzed (reltuples -1) */
  never: boolean;
}

/** The tables due (above), vacuumed and analyzed one by one; returns their names. */
export async function maintainEmbedded(db: SqlDb): Promise<string[]> {
  const r = await db.query<TableSize>(
    `SELECT c.oid::regclass::text AS rel, (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
            c.relpages::int AS seen, c.reltuples < 0 AS never
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`,
  );
  const due = r.rows.filter((t) => t.pages >= MIN_PAGES && (t.never || t.pages > GROWTH * t.seen)).map((t) => t.rel);
  // the names come from the catalogue (regclass text, quoted where needed); VACUUM takes no transaction
  for (const rel of due) await db.exec(`VACUUM (ANALYZE) ${rel}`);
  return due;
}
