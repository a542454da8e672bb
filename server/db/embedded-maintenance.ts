/**
 * Vacuum and statistics for the embedded database. PGlite runs PostgreSQL in single-user mode:
 * there is no autovacuum, so nothing ever removes dead row versions (every update and delete of
 * a queue, session or rate-limit table leaves one) and nothing gives the planner statistics (it
 * plans every table with default selectivities, however large it grew). The work engine's
 * heartbeat calls this on PGlite (server/jobs/queue-stats.ts), and so does the demo seed once it
 * filled its tables (seed.ts); PostgreSQL has its own autovacuum.
 *
 * A table is vacuumed and analyzed once it outgrew its statistics (table-stats.ts: more than
 * doubled in pages since its last vacuum or analyze): dead versions are reclaimed before a table
 * doubles. VACUUM runs in this thread like every PGlite query: one table at a time, so the API
 * waits at most one table's vacuum (the query wrapper yields between queries).
 */
import type { Db } from './db.js';
import { outgrewStatistics, tableSizes } from './table-stats.js';

/**
 * The tables due (above), vacuumed and analyzed one by one; returns the names of those done. One
 * table's failure (dropped meanwhile, a lock, a full disk) does not stop the others: the pass goes
 * on and then throws one error naming the tables left, which the next pass tries again.
 */
export async function maintainEmbedded(db: Pick<Db, 'query' | 'exec'>): Promise<string[]> {
  const sizes = await tableSizes(db, `c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`);
  const done: string[] = [];
  const failed: string[] = [];
  // the names come from the catalogue (regclass text, quoted where needed); VACUUM takes no transaction
  for (const rel of sizes.filter(outgrewStatistics).map((t) => t.rel)) {
    try {
      await db.exec(`VACUUM (ANALYZE) ${rel}`);
      done.push(rel);
    } catch (err) {
      failed.push(`${rel}: ${(err as Error).message}`);
    }
  }
  if (failed.length) throw new Error(`vacuum failed for ${failed.length} table(s), ${done.length} done: ${failed.join('; ')}`);
  return done;
}
