// @db both — planner statistics of the queue tables (PGlite has no autovacuum: there the engine's are the only ones)
/**
 * Issue 20, the engine's decline across samples (docs/performance.md): until a queue table had
 * statistics, the planner read the whole pg-boss partition by `name` (and `work_job` by its
 * state index) to update the 8 rows a claim names by primary key. The heartbeat now analyzes
 * the queue tables once they outgrew their statistics (server/jobs/queue-stats.ts), and the
 * state fences on `work_job` are written so that no index but the primary key can serve them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_CTES, FINISH_SQL } from '../../../server/jobs/batch.js';
import { analyzeQueueTables } from '../../../server/jobs/queue-stats.js';
import { startServer, type TestServer } from '../harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

const bossTable = () => `"${s.config.jobsSchema}".job`;

describe('the queue tables keep statistics the claim can plan by', () => {
  it('analyzes work_job once it outgrew its statistics, and not again until it doubles', async () => {
    const rows = 3_000; // well over ANALYZE_MIN_PAGES of rows
    await s.db.query(
      `INSERT INTO work_job (kind, title, data, max_attempts, state) SELECT 'system.noop', 'stats', '{}', 3, 'cancelled' FROM generate_series(1, $1)`,
      [rows],
    );
    // the heartbeat may have analyzed it in between: then it is not due, as after our own call
    await analyzeQueueTables(s.db, bossTable());
    const analyzed = await s.db.query<{ tuples: number }>(`SELECT reltuples::float8 AS tuples FROM pg_class WHERE oid = 'work_job'::regclass`);
    expect(analyzed.rows[0].tuples).toBeGreaterThanOrEqual(rows);
    expect(await analyzeQueueTables(s.db, bossTable())).not.toContain('work_job');
  });

  it('plans the claim and the final write by primary key on work_job, never by its state index', async () => {
    const plans = await s.db.tx(async (q) => {
      await q.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await q.query(`PREPARE stats_claim(text, int, text) AS WITH ${CLAIM_CTES(bossTable(), '$1', '$2', '$3')}`);
      await q.query(`PREPARE stats_finish(bigint[], text[], text[], text[], text, text, uuid[], int) AS ${FINISH_SQL(bossTable())}`);
      try {
        const claim = await q.query(`EXPLAIN (FORMAT JSON) EXECUTE stats_claim('work', 8, 'w')`);
        const finish = await q.query(`EXPLAIN (FORMAT JSON) EXECUTE stats_finish('{1}', '{done}', '{null}', '{""}', 'w', 'work', '{00000000-0000-0000-0000-000000000000}', 8)`);
        return [claim, finish].map((r) => JSON.stringify(r.rows));
      } finally {
        await q.query(`DEALLOCATE stats_claim`);
        await q.query(`DEALLOCATE stats_finish`);
      }
    });
    for (const plan of plans) {
      expect(plan).toContain('work_job_pkey');
      expect(plan).not.toContain('work_job_state_idx');
    }
  });
});
