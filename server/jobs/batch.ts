/**
 * The work engine's two per-job round trips, batched (issue 20, queue throughput):
 *
 * - `claimBatch`: pg-boss's fetch (the same SKIP LOCKED pick and `active` marking as
 *   `boss.fetch`) and the claim of each fetched job's `work_job` row, in ONE statement. Either
 *   both happen or neither: a claim can no longer be lost between the fetch and the run.
 * - `Finisher`: a job's final state on `work_job` and the completion of its delivery in pg-boss,
 *   in ONE statement, for every job that ended while the previous write was in flight (a group
 *   commit: an idle engine writes each outcome at once, a busy one writes them together).
 *
 * Both write pg-boss's job table directly (as recovery reads it, liveness.ts): the columns and
 * states are pg-boss 10's (`plans.js` fetchNextJob / completeJobs); tests/api/jobs/engine.test.ts
 * checks the deliveries end `completed`. The fences are the runner's own (runner.ts): a claim
 * only of a row under this delivery that is queued, already this worker's, or left by a worker
 * that is gone; a final state only while the row is still this worker's.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.js';
import { persist, type ClaimedRow, type RunnerDeps } from './runner.js';

interface NamedPool {
  query(cfg: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * One of the engine's hot statements: on PostgreSQL a named prepared statement (each pool
 * connection parses and plans it once, not at every batch: the bench's per-job cost over pg-boss
 * alone was mostly this planning); on PGlite the ordinary query. The name carries a hash of the
 * text, so two engines with different queue schemas on one pool never share a name.
 */
export function hotStatement<T>(db: Db, text: string): (values: unknown[]) => Promise<{ rows: T[] }> {
  const pool = db.kind === 'postgres' ? (db as Db & { pool?: NamedPool }).pool : undefined;
  if (!pool) return (values) => db.query<T>(text, values);
  const name = `work_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  return async (values) => ({ rows: (await pool.query({ name, text, values })).rows as T[] });
}

/** One fetched delivery: its boss id, the work_job id, and the row if the claim took it. */
export interface Delivery {
  bossId: string;
  workJobId: number;
  row: ClaimedRow | null;
}

/**
 * The claim's CTEs (`next`, `fetched`, `claimed`): up to $lim deliveries of queue $q fetched and
 * their rows claimed for worker $w (placeholders numbered by the caller).
 *
 * Every step reads an index, whatever the planner believes of the tables (docs/performance.md,
 * "The work engine", "Issue 20, the decline across samples"): queue tables change faster than autovacuum
 * analyzes them, and with statistics taken during a backlog the planner chose a sequential scan
 * of pg-boss's job table for `next` and hashed all of `work_job` for `claimed` — reads that grew
 * with every finished job kept (throughput fell sample after sample, custom or generic plan).
 * - `next` takes due deliveries in pg-boss's fetch index order (`i5`: name, start_after, for
 *   rows not yet active), so the scan stops after $lim rows instead of sorting every candidate.
 *   Jobs start in the order they became due (a backoff retry or a `startAfter` job when its time
 *   comes); the engine never sets pg-boss's priority.
 * - `fetched` and `claimed` name their rows by primary key (`= ANY(ARRAY(…))`), never a join the
 *   planner could turn into a hash of the whole table.
 * - The state fences on `work_job` are written as CASE, which no index can serve: written as
 *   `state = 'queued' OR state = 'running'` they imply the partial state index's predicate, and
 *   the planner, counting `= ANY` of an array it cannot see as ten index descents, read that
 *   whole index (every queued row of a backlog) rather than the primary key.
 * - The partitions' `name` is known to the planner only once they are analyzed (queue-stats.ts):
 *   before, it took `name = $1` for 0.5 % of a partition and scanned it by name, filtering ids.
 */
export const CLAIM_CTES = (bossTable: string, q: string, lim: string, w: string) => `
  next AS (
    SELECT id FROM ${bossTable}
     WHERE name = ${q} AND state < 'active' AND start_after < now()
     ORDER BY start_after
     LIMIT ${lim} FOR UPDATE SKIP LOCKED
  ), fetched AS (
    UPDATE ${bossTable} j SET state = 'active', started_on = now(),
           retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
     WHERE j.name = ${q} AND j.id = ANY(ARRAY(SELECT id FROM next))
    RETURNING j.id, (j.data->>'id')::bigint AS work_id
  ), claimed AS (
    UPDATE work_job w SET state = 'running', worker_id = ${w},
           attempts = CASE WHEN w.state = 'queued' THEN w.attempts + 1 ELSE w.attempts END,
           interruptions = CASE WHEN w.state = 'running' AND w.worker_id IS DISTINCT FROM ${w} THEN w.interruptions + 1 ELSE w.interruptions END,
           started_at = COALESCE(w.started_at, now()), updated_at = now()
      FROM fetched f
     WHERE w.id = ANY(ARRAY(SELECT work_id FROM fetched)) AND w.id = f.work_id AND w.boss_id = f.id AND NOT w.cancel_requested
       AND CASE w.state WHEN 'queued' THEN true
                        WHEN 'running' THEN w.worker_id = ${w} OR w.worker_id IS NULL OR w.worker_id NOT IN (SELECT id FROM work_worker)
                        ELSE false END
    RETURNING w.id, w.kind, w.data, w.attempts, w.max_attempts, w.created_by, w.ref_type, w.ref_id
  )
  SELECT f.id AS boss_id, f.work_id, c.id IS NOT NULL AS claimed, c.id, c.kind, c.data, c.attempts, c.max_attempts, c.created_by, c.ref_type, c.ref_id
    FROM fetched f LEFT JOIN claimed c ON c.id = f.work_id`;

type DeliveryRow = ClaimedRow & { boss_id: string; work_id: number; claimed: boolean };

const deliveries = (rows: DeliveryRow[]): Delivery[] =>
  rows.map(({ boss_id, work_id, claimed, ...row }) => ({
    bossId: boss_id,
    workJobId: Number(work_id),
    row: claimed ? { ...row, id: Number(row.id) } : null,
  }));

/**
 * The claim on `db` (a prepared statement on PostgreSQL): fetches up to `limit` deliveries of
 * `queue` and claims their rows for `workerId`. A delivery
 * whose row was not claimable (cancelled, final, another delivery's) comes back with `row: null`:
 * the caller settles it on the per-job path (runDelivery), which finds the same and ends it.
 */
export function claimBatch(db: Db, bossTable: string): (queue: string, workerId: string, limit: number) => Promise<Delivery[]> {
  const claim = hotStatement<DeliveryRow>(db, `WITH ${CLAIM_CTES(bossTable, '$1', '$2', '$3')}`);
  return async (queue, workerId, limit) => deliveries((await claim([queue, limit, workerId])).rows);
}

export type FinalState = 'done' | 'failed' | 'cancelled';

interface Pending {
  id: number;
  bossId: string;
  state: FinalState;
  result: string | null;
  error: string;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The final-state statement for a list of jobs (unnest of parallel arrays: one round trip), which
 * also fetches and claims up to $8 new deliveries for the slots these jobs free (0: none). The
 * rows it finishes (running, this worker's, their deliveries active) and the rows it claims
 * (under a delivery not yet active) are never the same. Rows are named by primary key
 * (`= ANY($1)`, as in the claim; the fence as CASE), so no plan reads the state index's running
 * rows or the table.
 */
export const FINISH_SQL = (bossTable: string) => `
  WITH v AS (
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS v(id, state, result, error)
  ), w AS (
    UPDATE work_job j SET state = v.state, result = v.result::jsonb,
           last_error = CASE WHEN v.error = '' THEN j.last_error ELSE v.error END,
           finished_at = now(), updated_at = now()
      FROM v WHERE j.id = ANY($1::bigint[]) AND j.id = v.id AND CASE WHEN j.state = 'running' THEN j.worker_id = $5 ELSE false END
    RETURNING j.id
  ), b AS (
    UPDATE ${bossTable} SET completed_on = now(), state = 'completed'
     WHERE name = $6 AND id = ANY($7::uuid[]) AND state = 'active'
    RETURNING id
  ), ${CLAIM_CTES(bossTable, '$6', '$8', '$5')}`;

/** The engine's slots: how many new deliveries a write may claim, and where they go. */
export interface Refill {
  /** slots free once `finishing` running jobs are written final (reserved until `got`); 0 = claim none */
  take(finishing: number): number;
  /** the deliveries claimed for the `asked` slots taken (none when the write failed) */
  got(ds: Delivery[], asked: number): void;
}

/**
 * Writes final states with their deliveries' completion, batched. `finish` resolves when the
 * job's write committed; while the database is away it is tried again (persist) until it is back
 * or the process stops. A batch refused for another reason (one job's result jsonb cannot take)
 * is written job by job, so one bad row fails only its own job.
 */
export class Finisher {
  private pending: Pending[] = [];
  private writing = false;
  private readonly statement: (values: unknown[]) => Promise<{ rows: DeliveryRow[] }>;

  constructor(
    private readonly deps: { db: Db; bossTable: string; queue: string; workerId: string; stop: AbortSignal; log: RunnerDeps['log']; refill?: Refill },
  ) {
    this.statement = hotStatement<DeliveryRow>(deps.db, FINISH_SQL(deps.bossTable));
  }

  finish(id: number, bossId: string, state: FinalState, result: string | null, error: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ id, bossId, state, result, error, resolve, reject });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    // jobs that end in the same turn (a batch of no-op jobs) go in one write
    await new Promise((r) => setImmediate(r));
    while (this.pending.length) {
      const batch = this.pending.splice(0, 500);
      try {
        await this.write(batch, true);
        for (const p of batch) p.resolve();
      } catch {
        for (const p of batch) await this.one(p);
      }
    }
    this.writing = false;
  }

  private async one(p: Pending): Promise<void> {
    try {
      await this.write([p]);
      p.resolve();
    } catch (err) {
      p.reject(err);
    }
  }

  /** `refill`: the slots these jobs free are filled in the same statement (the job-by-job fallback does not) */
  private async write(batch: Pending[], refill = false): Promise<void> {
    const { db, queue, workerId, stop, log } = this.deps;
    const asked = refill && this.deps.refill ? this.deps.refill.take(batch.length) : 0;
    let got: Delivery[] = [];
    try {
      const r = await persist(
      () =>
        this.statement([
          batch.map((p) => p.id),
          batch.map((p) => p.state),
          batch.map((p) => p.result),
          batch.map((p) => p.error),
          workerId,
          queue,
          batch.map((p) => p.bossId),
          asked,
        ]),
      { db, stop, log, what: `job ${batch.length === 1 ? batch[0].state : 'outcomes'}` },
      );
      got = deliveries(r.rows);
    } finally {
      if (asked) this.deps.refill!.got(got, asked);
    }
  }
}
