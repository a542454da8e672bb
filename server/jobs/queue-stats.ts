/**
 * Planner statistics for the queue's own tables (issue 20, "the decline across samples" in
 * docs/performance.md): `work_job` and the partitions of pg-boss's job table are analyzed by the
 * engine's heartbeat once they outgrow their statistics, instead of whenever autovacuum gets to
 * them (its naptime is a minute per database; PGlite has no autovacuum at all).
 *
 * Why: until a queue table has statistics, the planner takes PostgreSQL's default selectivity
 * for `name = $1` (0.5 %), although every row of a queue's partition has that name, and for
 * `state = 'running'` on `work_job`. So the claim and the final write (batch.ts), which name
 * their rows by primary key, were planned as a scan of the whole partition by `name` (or of the
 * state index) with the ids as a filter: measured with auto_explain, 6,000–8,000 rows read to
 * update 8, 4,000 buffers a claim, throughput falling sample after sample (2,811 → 1,008 jobs/s)
 * until autovacuum happened to analyze — and in runs where it analyzed early, rising instead
 * (3,056 → 4,716). The plans cached by prepared statements are re-planned after an ANALYZE.
 */
import { maintainEmbedded } from '../db/embedded-maintenance.js';
import { outgrewStatistics, tableSizes } from '../db/table-stats.js';
import type { SqlDb } from '../db/sql-db.js';

/** one analyzing engine at a time across processes (a transaction-scoped advisory lock) */
const LOCK_KEY = 0x51a7;

/**
 * Analyzes `work_job` and the partitions of `bossTable` that outgrew their statistics
 * (../db/table-stats.ts). Returns the tables analyzed; none when another process holds the lock.
 * Maintenance only: the caller logs a failure.
 */
export async function analyzeQueueTables(db: SqlDb, bossTable: string): Promise<string[]> {
  return db.tx(async (q) => {
    const lock = await q.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [LOCK_KEY]);
    if (!lock.rows[0]?.ok) return [];
    const sizes = await tableSizes(q, `c.oid = 'work_job'::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = $1::regclass)`, [bossTable]);
    const due = sizes.filter(outgrewStatistics).map((t) => t.rel);
    // the names come from the catalogue (regclass text, quoted where needed)
    if (due.length) await q.query(`ANALYZE ${due.join(', ')}`);
    return due;
  });
}

/**
 * The heartbeat's table maintenance: on PostgreSQL the queue tables' statistics (above; autovacuum
 * does the rest), on PGlite — which has no autovacuum — every table's vacuum and statistics.
 */
export async function maintainTables(db: SqlDb, bossTable: string): Promise<void> {
  if (db.kind === 'pglite') await maintainEmbedded(db);
  else await analyzeQueueTables(db, bossTable);
}
