import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Queryable } from '../db/db.js';
import type { SqlDb } from '../db/sql-db.js';
import { createBoss, TICK_QUEUE, txExecutor, WORK_QUEUE } from './boss.js';
import { systemClock, type Clock } from './clock.js';
import { handOverJob, requestCancel, retryJob, type JobRowDeps } from './job-rows.js';
import { maintainTables } from './queue-stats.js';
import { HEARTBEAT_MS, ORPHAN_SECONDS, recoverJobs, registerWorker, runningUnchanged, SWEEP_AFTER_MS, sweepSameHost, sweepStale, workersHere } from './liveness.js';
import { Finisher } from './batch.js';
import { persist } from './runner.js';
import { startTickers } from './tick-scheduler.js';
import { WorkLoop } from './work-loop.js';
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
  /** an idle worker looks for work this often (s, default 1); on PostgreSQL an enqueue anywhere wakes it at once (LISTEN/NOTIFY) */
  pollSeconds?: number;
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

const POLL_SECONDS = 1;
/** SIGTERM: running jobs finish the step they are in for this long, then their signal fires */
const GRACE_MS = 5_000;

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
  /** SIGTERM: no new fetches, jobs end at their next step */
  private readonly draining = new AbortController();
  /** the grace period is over: jobs' signals fire */
  private readonly shutdown = new AbortController();
  /** since when this worker has reached the database without a break (null: it has not) */
  private healthySince: number | null = null;
  private beating = false;
  private readonly timers: NodeJS.Timeout[] = [];
  /** PostgreSQL: the channel an enqueue notifies (one per queue schema) */
  private readonly channel: string;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly pollMs: number;
  /** pg-boss's job table (its deliveries), quoted */
  private readonly bossTable: string;
  /** this process's work loop (work-loop.ts), once startWorkers ran */
  private loop: WorkLoop | null = null;
  private started = false;
  private stopped = false;
  private readonly log: NonNullable<EngineOptions['log']>;

  constructor(private readonly opts: EngineOptions) {
    this.clock = opts.clock ?? systemClock;
    // each running job listens to both signals, and a refill starts the next jobs while the ones
    // it replaces settle: up to twice `concurrency` at a moment, plus the writes waiting out an outage
    for (const s of [this.draining.signal, this.shutdown.signal]) setMaxListeners(Math.max(10, opts.concurrency * 4 + 10), s);
    this.kinds = new Map(opts.kinds.map((k) => [k.kind, k]));
    this.log = opts.log ?? quietLog;
    const created = createBoss(opts.db, { schema: opts.bossSchema ?? 'pgboss', supervise: opts.concurrency > 0 });
    this.boss = created.boss;
    this.detachBoss = created.detach;
    this.boss.on('error', (err: Error) => this.log.warn({ err: err.message }, 'queue error'));
    this.channel = `work_${opts.bossSchema ?? 'pgboss'}`.slice(0, 63);
    this.pollMs = Math.max(0.05, opts.pollSeconds || POLL_SECONDS) * 1000;
    this.bossTable = `"${(opts.bossSchema ?? 'pgboss').replace(/"/g, '""')}".job`;
  }

  get running(): boolean {
    return this.started && !this.stopped;
  }

  get runsWorkers(): boolean {
    return this.opts.concurrency > 0;
  }

  async start(): Promise<void> {
    await this.startQueue();
    await this.startWorkers();
  }

  /** The queue alone: jobs can be enqueued; nothing runs here until startWorkers (start does both). */
  async startQueue(): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(WORK_QUEUE);
    await this.boss.createQueue(TICK_QUEUE);
    this.started = true;
  }

  /**
   * This process's worker loops, the recovery of jobs left by processes gone, and the tickers
   * (after startQueue). The server calls it once it listens, so the first request does not wait
   * for recovery and the first ticks.
   */
  async startWorkers(): Promise<void> {
    if (!this.runsWorkers || !this.started || this.stopped) return;
    const { db } = this.opts;
    // the database may go away while this starts (after the server listens): the start waits
    // for it to come back, like every other write of the engine, instead of ending the process
    const keep = { db, stop: this.draining.signal, log: this.log };
    await persist(() => this.register(), { ...keep, what: 'worker registration' });
    workersHere.add(this.workerId);
    this.healthySince = Date.now();
    // embedded PGlite: the data-dir lock says no other process runs, so every other worker is gone
    if (db.kind === 'pglite') await persist(() => db.query(`DELETE FROM work_worker WHERE id <> $1`, [this.workerId]), { ...keep, what: 'worker sweep' });
    else await persist(() => this.sweepSameHost(), { ...keep, what: 'worker sweep' });
    await persist(() => this.recover(), { ...keep, what: 'job recovery' });
    if (this.stopped) return; // stopped while starting: no loops, timers or listeners after stop()
    const loop = new WorkLoop({
      db,
      boss: this.boss,
      bossTable: this.bossTable,
      workerId: this.workerId,
      concurrency: this.opts.concurrency,
      pollMs: this.pollMs,
      draining: this.draining.signal,
      shutdown: this.shutdown.signal,
      log: this.log,
      handOver: (id) => this.handOver(id),
    });
    this.loop = loop;
    // final states are written with their deliveries' completion, batched (batch.ts), and claim
    // new deliveries for the slots they free in the same statement (the loop's refill)
    const finisher = new Finisher({ db, bossTable: this.bossTable, queue: WORK_QUEUE, workerId: this.workerId, stop: this.shutdown.signal, log: this.log, refill: loop.refill });
    const deps = {
      db,
      finish: finisher.finish.bind(finisher),
      clock: this.clock,
      kinds: this.kinds,
      workerId: this.workerId,
      enqueue: this.enqueue,
      draining: this.draining.signal,
      shutdown: this.shutdown.signal,
      log: this.log,
    };
    // an enqueue in any process wakes this one when it commits; polling stays as the fallback
    if (db.listen) this.unlisten = db.listen(this.channel, () => loop.nudge());
    loop.start(deps);
    const tickTimers = await startTickers(this.boss, this.opts.tickers ?? [], {
      db,
      clock: this.clock,
      enqueue: this.enqueue,
      signal: this.draining.signal,
      pollMs: this.pollMs,
      log: this.log,
    });
    this.timers.push(...tickTimers);
    this.timers.push(
      setInterval(() => {
        // one heartbeat at a time (a connect that hangs in a partition must not pile them up)
        if (this.beating) return;
        this.beating = true;
        void this.heartbeat().finally(() => (this.beating = false));
      }, HEARTBEAT_MS),
    );
  }

  /** This worker's row, written again if it is gone (an upsert: a sweep or a restore may have removed it). */
  private register(): Promise<void> {
    return registerWorker(this.opts.db, this.workerId);
  }

  /** Rows of earlier processes on this machine that are certainly gone (liveness.ts). */
  private sweepSameHost(): Promise<void> {
    return sweepSameHost(this.opts.db, this.workerId);
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
    // PostgreSQL: idle workers of every process are woken when the transaction commits (one
    // notification per transaction however many jobs it adds)
    if (this.opts.db.kind === 'postgres') await q.query(`SELECT pg_notify($1, '')`, [this.channel]);
    this.loop?.wake();
  }

  /** A job this worker was running was interrupted: queued again at once, no attempt spent (job-rows.ts). */
  private async handOver(id: number): Promise<void> {
    await handOverJob(this.rowDeps, id, this.workerId);
    this.log.info({ job: id }, 'interrupted job handed over');
  }

  /** Asks a job to stop: a queued one is cancelled at once, a running one at its next progress call. */
  cancel(q: Queryable, id: number): Promise<boolean> {
    return requestCancel(q, id);
  }

  /** Runs a failed or cancelled job again (a new delivery and a full round of attempts). */
  retry(q: Queryable, id: number): Promise<boolean> {
    return retryJob(this.rowDeps, q, id);
  }

  private get rowDeps(): JobRowDeps {
    return { db: this.opts.db, kinds: this.kinds, sendWork: (q, id, k, max) => this.sendWork(q, id, k, max) };
  }

  private async heartbeat(): Promise<void> {
    try {
      await this.register();
      this.healthySince ??= Date.now();
    } catch (err) {
      if (this.healthySince !== null) this.log.warn({ err: (err as Error).message }, 'heartbeat failed');
      this.healthySince = null;
      return;
    }
    try {
      // only a worker that has seen the database without a break for long enough judges others
      if (Date.now() - this.healthySince >= SWEEP_AFTER_MS) await sweepStale(this.opts.db, this.workerId);
      await this.recover();
      await this.reclaimOrphans();
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'recovery failed');
    }
    // planner statistics (and on PGlite vacuum) for tables that outgrew them (queue-stats.ts)
    await maintainTables(this.opts.db, this.bossTable).catch((err: Error) => this.log.warn({ err: err.message }, 'table maintenance failed'));
  }

  /** Rows 'running' here that this process does not run (liveness.ts runningUnchanged) are handed over. */
  private async reclaimOrphans(): Promise<void> {
    if (!this.loop || this.draining.signal.aborted) return;
    const candidates = await runningUnchanged(this.opts.db, this.workerId);
    for (const id of this.loop.orphans(candidates, ORPHAN_SECONDS * 1000)) {
      await this.handOver(id);
      this.log.warn({ job: id }, 'a job marked running here that this process does not run was queued again');
    }
  }

  /** Jobs of workers that are gone, and deliveries fetched but never claimed, run again (liveness.ts). */
  private recover(): Promise<void> {
    return recoverJobs({ ...this.rowDeps, bossTable: this.bossTable, log: this.log });
  }

  /**
   * SIGTERM: no new fetch; running jobs end at their next step (progress / checkpoint) within
   * GRACE_MS, then their signals fire; each is handed over (queued again, no attempt spent) and
   * this worker's row is removed, so another worker takes what is left at once.
   */
  async stop(): Promise<void> {
    if (this.stopped || !this.started) return;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.draining.abort();
    await this.unlisten?.();
    const settled = () => Promise.allSettled([...(this.loop?.active ?? [])]);
    await Promise.race([settled(), new Promise((r) => setTimeout(r, GRACE_MS))]);
    this.shutdown.abort();
    await Promise.race([settled(), new Promise((r) => setTimeout(r, 2_000))]);
    await this.boss.stop({ graceful: true, wait: true, timeout: 2_000 }).catch(() => undefined);
    this.detachBoss();
    if (this.runsWorkers) await this.opts.db.query(`DELETE FROM work_worker WHERE id = $1`, [this.workerId]).catch(() => undefined);
    workersHere.delete(this.workerId);
  }
}
