/**
 * When a table's planner statistics are out of date, judged by its size in pages (the one rule
 * of the queue's ANALYZE, server/jobs/queue-stats.ts, and of PGlite's vacuum,
 * embedded-maintenance.ts): at least MIN_PAGES pages and more than twice the pages it had at its
 * last analyze or vacuum (or never had either) — statistics never taken at less than half a
 * table's size; smaller drifts are autovacuum's (PostgreSQL) or wait for the next doubling
 * (PGlite). Pages, not the cumulative statistics' row counts: PGlite keeps none (they stay 0),
 * and a file's size costs nothing to read. Plans stay right as a table grows past its
 * statistics, because the planner scales row counts by the table's current pages.
 */
import type { Queryable } from './db.js';

const MIN_PAGES = 16;
const GROWTH = 2;

export interface TableSize {
  /** the table's name as regclass text (schema-qualified and quoted where needed) */
  rel: string;
  /** pages now */
  pages: number;
  /** pages at the last analyze or vacuum (relpages) */
  seen: number;
  /** never analyzed nor vacuumed (reltuples -1) */
  never: boolean;
}

/** Sizes of the tables (`pg_class c`) that `where` selects. */
export async function tableSizes(q: Queryable, where: string, params: unknown[] = []): Promise<TableSize[]> {
  const r = await q.query<TableSize>(
    `SELECT c.oid::regclass::text AS rel, (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
            c.relpages::int AS seen, c.reltuples < 0 AS never
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE ${where}`,
    params,
  );
  return r.rows;
}

export const outgrewStatistics = (t: TableSize): boolean => t.pages >= MIN_PAGES && (t.never || t.pages > GROWTH * t.seen);
