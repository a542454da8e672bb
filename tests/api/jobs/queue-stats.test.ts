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
import { maintainEmbedded } from '../../../server/db/embedded-maintenance.js';
import { analyzeQueueTables } from '../../../server/jobs/queue-stats.js';
import { startServer, type TestServer } from '../harness.js';

let s: TestServer;
beforeAll(async () => {
  // no workers: no heartbeat doing the same maintenance between a test's steps
  s = await startServer({ config: { workers: 0 } });
});
afterAll(async () => s?.close());

const bossTable = () => `"${s.config.jobsSchema}".job`;

describe('the queue tables keep statistics the claim can plan by', () => {
  it('analyzes work_job once it outgrew its statistics, and not again until it doubles', async () => {
    const rows = 3_000; // well over the 16 pages below which a table is left alone (server/db/table-stats.ts)
    await s.db.query(
      `INSERT INTO work_job (kind, title, data, max_attempts, state) SELECT 'system.noop', 'stats', '{}', 3, 'cancelled' FROM generate_series(1, $1)`,
      [rows],
    );
    const did = await analyzeQueueTables(s.db, bossTable());
    // (PostgreSQL's autovacuum may have analyzed it a moment before: then only the outcome is ours to check)
    if (s.db.kind === 'pglite') expect(did).toContain('work_job');
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

  it('on PGlite (no autovacuum), vacuums and analyzes a table that doubled since it last was, then leaves it', async (t) => {
    if (s.db.kind !== 'pglite') return t.skip();
    const size = async () =>
      (await s.db.query<{ pages: number; seen: number; tuples: number }>(
        `SELECT (pg_relation_size(oid) / 8192)::int AS pages, relpages::int AS seen, reltuples::float8 AS tuples FROM pg_class WHERE oid = 'work_job_effect'::regclass`,
      )).rows[0];
    await maintainEmbedded(s.db); // whatever was due before this test
    // rows, then an update of each (a dead version per row): the table more than doubles
    await s.db.query(`INSERT INTO work_job_effect (marker, job_id) SELECT 'vacuum-' || g, 0 FROM generate_series(1, 4000) g`);
    await s.db.query(`UPDATE work_job_effect SET marker = marker || '.' WHERE marker LIKE 'vacuum-%'`);
    const before = await size();
    expect(before.pages).toBeGreaterThan(2 * before.seen);
    expect(await maintainEmbedded(s.db)).toContain('work_job_effect');
    const after = await size();
    expect(after.seen).toBe(after.pages); // vacuumed: relpages is the table's size again
    expect(after.tuples).toBeGreaterThanOrEqual(4000); // analyzed: the planner knows its rows
    // the space of the dead versions is reused: more updates do not make it due again
    await s.db.query(`UPDATE work_job_effect SET marker = marker || '.' WHERE marker LIKE 'vacuum-%'`);
    expect(await maintainEmbedded(s.db)).not.toContain('work_job_effect');
  });

  it("on PGlite, one table's failed vacuum leaves the others done and names itself; the next pass does it", async (t) => {
    if (s.db.kind !== 'pglite') return t.skip();
    await maintainEmbedded(s.db);
    // two tables due: each more than doubles (rows, then a dead version of each)
    for (const sql of [
      `INSERT INTO work_job_effect (marker, job_id) SELECT 'fail-' || g, 0 FROM generate_series(1, 8000) g`,
      `UPDATE work_job_effect SET marker = marker || '.' WHERE marker LIKE 'fail-%'`,
      `INSERT INTO work_job (kind, title, data, max_attempts, state) SELECT 'system.noop', 'vacuum-fail', '{}', 3, 'cancelled' FROM generate_series(1, 6000)`,
      `UPDATE work_job SET title = title || '.' WHERE title LIKE 'vacuum-fail%'`,
    ])
      await s.db.query(sql);
    // the database refuses the first table's vacuum (what a lock or a full disk would do)
    const refusing = {
      query: s.db.query.bind(s.db),
      exec: (sql: string) => (sql.includes('work_job_effect') ? Promise.reject(new Error('could not extend file')) : s.db.exec(sql)),
    };
    const err = await maintainEmbedded(refusing).then(() => null, (e: Error) => e);
    expect(err?.message).toMatch(/work_job_effect: could not extend file/);
    expect(err?.message).toMatch(/\b1 table\(s\), [1-9]\d* done/);
    // the other table was vacuumed all the same; the refused one is done by the next pass
    const seen = await s.db.query<{ rel: string; ok: boolean }>(
      `SELECT relname AS rel, relpages = (pg_relation_size(oid) / 8192) AS ok FROM pg_class WHERE relname IN ('work_job', 'work_job_effect')`,
    );
    expect(Object.fromEntries(seen.rows.map((r) => [r.rel, r.ok]))).toEqual({ work_job: true, work_job_effect: false });
    expect(await maintainEmbedded(s.db)).toContain('work_job_effect');
  });
});
