import os from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Queryable } from '../db/db.js';
import type { SqlDb } from '../db/sql-db.js';
import { createBoss, TICK_QUEUE, txExecutor, WORK_QUEUE } from './boss.js';
import { systemClock, type Clock } from './clock.js';
import { runDelivery } from './runner.js';
import type { EnqueueOptions, JobKind, Ticker } from './types.js';

export interface EngineOptions {
  db: SqlDb;
  kinds: JobKind[];
  tickers?: Ticker[];
  clock?: Clock;
  /** parallel work loops in this process; 0 = enqueue only (an API-only instance) */
  concurrency: number;
  /** pg-boss's schema (tests give each database its own) */
  bossSchema?: string;
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

const HEARTBEAT_MS = 5_000;
/** a worker not seen for this long is gone; its running jobs are retried */
const STALE_SECONDS = 15;
const POLL_SECONDS = 1;

const quietLog = { info() {}, warn() {} };

/**
 * The work engine: pg-boss does the queue (fetch with SKIP LOCKED, retry with backoff,
 * expiry, singleton slots); `work_job` is what people see (state, progress, attempts, last
 * error, who started it). See docs/architecture.md "The work engine".
 */
export class JobEngine {
  readonly clock: Clock;
  readonly workerId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly boss: PgBoss;
  private readonly detachBoss: () => void;
  private readonly kinds: Map<string, JobKind>;
  private readonly shutdown = new AbortController();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly active = new Set<Promise<void>>();
  private wakeLoop: (() => void) | null = null;
  private saturated = false;
  private started = false;
  private stopped = false;
  private readonly log: NonNullable<EngineOptions['log']>;

  constructor(private readonly opts: EngineOptions) {
    this.clock = opts.clock ?? systemClock;
    this.kinds = new Map(opts.kinds.map((k) => [k.kind, k]));
    this.log = opts.log ?? quietLog;
    const created = createBoss(opts.db, { schema: opts.bossSchema ?? 'pgboss', supervise: opts.concurrency > 0 });
    this.boss = created.boss;
    this.detachBoss = created.detach;
    this.boss.on('error', (err: Error) => this.log.warn({ err: err.message }, 'queue error'));
  }

  get running(): boolean {
    return this.started && !this.stopped;
  }

  get runsWorkers(): boolean {
    return this.opts.concurrency > 0;
  }

  async start(): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(WORK_QUEUE);
    await this.boss.createQueue(TICK_QUEUE);
    this.started = true;
    if (!this.runsWorkers) return;
    const { db } = this.opts;
    await db.query(
      `INSERT INTO work_worker (id, host, pid) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET seen_at = now()`,
      [this.workerId, os.hostname(), process.pid],
    );
    // embedded PGlite: the data-dir lock says no other process runs, so every other worker is gone
    if (db.kind === 'pglite') await db.query(`DELETE FROM work_worker WHERE id <> $1`, [this.workerId]);
    await this.recover();
    const deps = {
      db,
      clock: this.clock,
      kinds: this.kinds,
      workerId: this.workerId,
      enqueue: this.enqueue,
      shutdown: this.shutdown.signal,
      log: this.log,
    };
    void this.workLoop(deps);
    const tickers = new Map((this.opts.tickers ?? []).map((t) => [t.name, t]));
    if (tickers.size) {
      await this.boss.work<{ name: string }>(TICK_QUEUE, { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS }, async ([job]) => {
        const t = tickers.get(job.data.name);
        if (t) await t.run({ db, now: () => this.clock.now(), enqueue: this.enqueue, signal: this.shutdown.signal });
      });
      for (const t of tickers.values()) {
        const fire = () =>
          void this.boss
            .send(TICK_QUEUE, { name: t.name }, { singletonKey: t.name, singletonSeconds: t.everySeconds, retryLimit: 0, expireInSeconds: 300 })
            .catch((err: Error) => this.log.warn({ err: err.message }, 'tick not sent'));
        fire();
        this.timers.push(setInterval(fire, t.everySeconds * 1000));
      }
    }
    this.timers.push(setInterval(() => void this.heartbeat(), HEARTBEAT_MS));
  }

  /** Adds a job in the caller's transaction `q`; it starts after the transaction commits. */
  enqueue = async <D extends object>(q: Queryable, kind: string, data: D, opts: EnqueueOptions = {}): Promise<{ id: number }> => {
    const k = this.kinds.get(kind);
    if (!k) throw new Error(`unknown job kind "${kind}"`);
    const maxAttempts = opts.maxAttempts ?? k.maxAttempts ?? 3;
    // the queue's id is chosen here, so the row is written once (no UPDATE after the send)
    const bossId = randomUUID();
    const r = await q.query<{ id: number }>(
      `INSERT INTO work_job (kind, title, ref_type, ref_id, data, max_attempts, created_by, boss_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [kind, opts.title ?? k.title?.(data) ?? kind, opts.ref?.type ?? null, opts.ref?.id ?? null, JSON.stringify(data), maxAttempts, opts.createdBy ?? null, bossId],
    );
    const id = Number(r.rows[0].id);
    await this.sendWork(q, id, k, maxAttempts, opts.startAfter, bossId);
    return { id };
  };

  /** Sends a work job to the queue; `presetId` = the boss id already on the work_job row. */
  private async sendWork(q: Queryable, id: number, k: JobKind, maxAttempts: number, startAfter?: Date, presetId?: string): Promise<void> {
    const bossId = await this.boss.send(
      WORK_QUEUE,
      { id },
      {
        ...(presetId ? { id: presetId } : {}),
        db: txExecutor(q),
        retryLimit: Math.max(0, maxAttempts - 1),
        retryDelay: k.retryDelaySeconds ?? 5,
        retryBackoff: true,
        expireInSeconds: k.timeoutSeconds ?? 900,
        ...(startAfter ? { startAfter } : {}),
      },
    );
    if (!presetId) await q.query(`UPDATE work_job SET boss_id = $2 WHERE id = $1`, [id, bossId]);
    this.wake();
  }

  /** a hint to this process's idle loop that work may be there (the commit comes just after) */
  private wake(): void {
    if (!this.wakeLoop) return;
    const t = setTimeout(() => this.wakeLoop?.(), 30);
    t.unref();
  }

  /**
   * Fetches as many jobs as there are free slots (`concurrency`) and runs each on its own:
   * a long job (a task run, a campaign) never holds up short ones, and each job is completed
   * or failed (→ pg-boss retry with backoff) by itself. Sleeps POLL_SECONDS when idle, less
   * when a slot frees or a local enqueue wakes it.
   */
  private async workLoop(deps: Parameters<typeof runDelivery>[0]): Promise<void> {
    while (!this.shutdown.signal.aborted) {
      const free = this.opts.concurrency - this.active.size;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = await this.boss.fetch<{ id: number }>(WORK_QUEUE, { batchSize: free });
          fetched = jobs?.length ?? 0;
          for (const job of jobs ?? []) this.runOne(deps, job.id, Number(job.data.id));
        } catch (err) {
          if (!this.shutdown.signal.aborted) this.log.warn({ err: (err as Error).message }, 'fetch failed');
        }
      }
      // a fetch that filled every free slot may have left more behind: a finishing job wakes the loop
      // (no free slot: keep what the last real fetch said)
      if (free > 0) this.saturated = fetched === free;
      if (free > 0 && this.saturated) continue;
      await new Promise<void>((resolve) => {
        const signal = this.shutdown.signal;
        const t = setTimeout(done, POLL_SECONDS * 1000);
        function done() {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          resolve();
        }
        this.wakeLoop = done;
        signal.addEventListener('abort', done, { once: true });
      });
      this.wakeLoop = null;
    }
  }

  private runOne(deps: Parameters<typeof runDelivery>[0], bossId: string, workJobId: number): void {
    const p: Promise<void> = runDelivery(deps, workJobId, bossId)
      .then((outcome) => (outcome === 'retry' ? this.boss.fail(WORK_QUEUE, bossId, { retry: true }) : this.boss.complete(WORK_QUEUE, bossId)))
      .then(
        () => undefined,
        (err: Error) => this.log.warn({ job: workJobId, err: err.message }, 'job delivery not settled'),
      )
      .finally(() => {
        this.active.delete(p);
        // the queue was drained at the last fetch: new work wakes the loop by itself (wake() or the poll)
        if (this.saturated) this.wakeLoop?.();
      });
    this.active.add(p);
  }

  /** Asks a job to stop: a queued one is cancelled at once, a running one at its next progress call. */
  async cancel(q: Queryable, id: number): Promise<boolean> {
    const r = await q.query<{ state: string }>(
      `UPDATE work_job SET cancel_requested = true, updated_at = now(),
              state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END,
              finished_at = CASE WHEN state = 'queued' THEN now() ELSE finished_at END
        WHERE id = $1 AND state IN ('queued', 'running') RETURNING state`,
      [id],
    );
    return r.rows.length > 0;
  }

  /** Runs a failed or cancelled job again (a new delivery and a full round of attempts). */
  async retry(q: Queryable, id: number): Promise<boolean> {
    const kind = (await q.query<{ kind: string }>(`SELECT kind FROM work_job WHERE id = $1`, [id])).rows[0]?.kind;
    const k = kind ? this.kinds.get(kind) : undefined;
    if (!k) return false;
    // attempts keep counting (the Jobs page shows every try); the job gets a full round more
    const r = await q.query<{ max_attempts: number }>(
      `UPDATE work_job SET state = 'queued', cancel_requested = false, finished_at = NULL, updated_at = now(),
              max_attempts = attempts + $2
        WHERE id = $1 AND state IN ('failed', 'cancelled') RETURNING max_attempts`,
      [id, k.maxAttempts ?? 3],
    );
    const row = r.rows[0];
    if (!row) return false;
    await this.sendWork(q, id, k, row.max_attempts);
    return true;
  }

  private async heartbeat(): Promise<void> {
    try {
      await this.opts.db.query(`UPDATE work_worker SET seen_at = now() WHERE id = $1`, [this.workerId]);
      await this.recover();
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'heartbeat failed');
    }
  }

  /** Running jobs of workers that stopped beating (killed, crashed) are delivered again. */
  private async recover(): Promise<void> {
    const { db } = this.opts;
    await db.query(`DELETE FROM work_worker WHERE seen_at < now() - make_interval(secs => $1)`, [STALE_SECONDS]);
    const lost = await db.query<{ id: number; kind: string; attempts: number; max_attempts: number }>(
      `SELECT id, kind, attempts, max_attempts FROM work_job
        WHERE state = 'running' AND (worker_id IS NULL OR worker_id NOT IN (SELECT id FROM work_worker)) LIMIT 100`,
    );
    for (const j of lost.rows) {
      const k = this.kinds.get(j.kind);
      await db.tx(async (q) => {
        const stillLost = await q.query(
          `UPDATE work_job SET state = CASE WHEN attempts >= max_attempts OR $2 THEN 'failed' ELSE 'queued' END,
                  last_error = 'the worker running it stopped (restart or crash) / 执行它的进程已停止',
                  finished_at = CASE WHEN attempts >= max_attempts OR $2 THEN now() ELSE NULL END, updated_at = now()
            WHERE id = $1 AND state = 'running' AND (worker_id IS NULL OR worker_id NOT IN (SELECT id FROM work_worker))
            RETURNING state`,
          [j.id, !k],
        );
        if (k && (stillLost.rows[0] as { state?: string } | undefined)?.state === 'queued') await this.sendWork(q, j.id, k, j.max_attempts);
      });
      this.log.info({ job: j.id, kind: j.kind }, 'lost job delivered again');
    }
  }

  async stop(): Promise<void> {
    if (this.stopped || !this.started) return;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.shutdown.abort();
    // running jobs see the abort and end; what is left 'running' is recovered on the next start
    await Promise.race([Promise.allSettled([...this.active]), new Promise((r) => setTimeout(r, 8_000))]);
    await this.boss.stop({ graceful: true, wait: true, timeout: 8_000 }).catch(() => undefined);
    this.detachBoss();
    if (this.runsWorkers) await this.opts.db.query(`DELETE FROM work_worker WHERE id = $1`, [this.workerId]).catch(() => undefined);
  }
}
