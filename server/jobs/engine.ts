import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Queryable } from '../db/db.js';
import type { SqlDb } from '../db/sql-db.js';
import { createBoss, TICK_QUEUE, txExecutor, WORK_QUEUE } from './boss.js';
import { systemClock, type Clock } from './clock.js';
import { handOverJob, requestCancel, retryJob, type JobRowDeps } from './job-rows.js';
import { HEARTBEAT_MS, recoverJobs, registerWorker, SWEEP_AFTER_MS, sweepSameHost, sweepStale, workersHere } from './liveness.js';
import { claimBatch, Finisher, type Delivery } from './batch.js';
import { persist, runClaimed, runDelivery } from './runner.js';
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
  /**
   * an idle worker looks for work this often (seconds, default 1); on PostgreSQL an enqueue
   * anywhere also wakes it at once (LISTEN/NOTIFY), so this is the fallback
   */
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
  /** work_job ids running in this process (a second delivery of one is not started beside it) */
  private readonly runningIds = new Set<number>();
  /** since when this worker has reached the database without a break (null: it has not) */
  private healthySince: number | null = null;
  private beating = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly active = new Set<Promise<void>>();
  private wakeLoop: (() => void) | null = null;
  /** a wake-up came while the loop was not waiting: it fetches again at once */
  private wakePending = false;
  /** PostgreSQL: the channel an enqueue notifies (one per queue schema) */
  private readonly channel: string;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly pollMs: number;
  /** pg-boss's job table (its deliveries), quoted */
  private readonly bossTable: string;
  private saturated = false;
  private wakeScheduled = false;
  /** slots a fetch in flight (the loop's, or a final write's refill) will fill */
  private reserved = 0;
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
    // final states are written with their deliveries' completion, batched (batch.ts)
    // and claim new deliveries for the slots they free in the same statement (refill)
    const refill = {
      take: (finishing: number) => {
        const k = this.draining.signal.aborted || !this.saturated ? 0 : Math.max(0, this.freeSlots(finishing));
        this.reserved += k;
        return k;
      },
      got: (ds: Delivery[], asked: number) => {
        for (const d of ds) this.runOne(deps, d);
        this.reserved -= asked;
        this.saturated = ds.length === asked;
      },
    };
    const finisher = new Finisher({ db, bossTable: this.bossTable, queue: WORK_QUEUE, workerId: this.workerId, stop: this.shutdown.signal, log: this.log, refill });
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
    if (db.listen) this.unlisten = db.listen(this.channel, () => this.nudge());
    void this.workLoop(deps);
    const tickers = new Map((this.opts.tickers ?? []).map((t) => [t.name, t]));
    if (tickers.size) {
      await this.boss.work<{ name: string }>(TICK_QUEUE, { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, this.pollMs / 1000) }, async ([job]) => {
        const t = tickers.get(job.data.name);
        if (t) await t.run({ db, now: () => this.clock.now(), enqueue: this.enqueue, signal: this.draining.signal });
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
    this.wake();
  }

  /** work may be there (a notification): the idle loop fetches now, a busy one as soon as it is done */
  private nudge(): void {
    if (this.wakeLoop) {
      // idle: fetch now (and, with no free slot, as soon as a job ends)
      this.saturated = true;
      this.wakeLoop();
    } else this.wakePending = true;
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
   * or failed (→ pg-boss retry with backoff) by itself. Sleeps `pollSeconds` when idle, less
   * when a slot frees, a local enqueue wakes it or (PostgreSQL) an enqueue anywhere notifies it.
   */
  private async workLoop(deps: Parameters<typeof runDelivery>[0]): Promise<void> {
    while (!this.draining.signal.aborted) {
      const free = this.freeSlots();
      let fetched = 0;
      if (free > 0) {
        this.reserved += free;
        try {
          // fetch and claim in one statement (batch.ts)
          const jobs = await claimBatch(this.opts.db, this.bossTable, WORK_QUEUE, this.workerId, free);
          fetched = jobs.length;
          for (const job of jobs) this.runOne(deps, job);
        } catch (err) {
          if (!this.draining.signal.aborted) this.log.warn({ err: (err as Error).message }, 'fetch failed');
        } finally {
          this.reserved -= free;
        }
      }
      // a fetch that filled every free slot may have left more behind: a finishing job wakes the loop
      // (no free slot: keep what the last real fetch said)
      if (free > 0) this.saturated = fetched === free;
      // a notification while this loop was busy: there may be work it has not fetched yet
      if (this.wakePending) {
        this.wakePending = false;
        this.saturated = true;
      }
      if (free > 0 && this.saturated) continue;
      await new Promise<void>((resolve) => {
        const signal = this.draining.signal;
        const t = setTimeout(done, this.pollMs);
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

  /** slots free for new deliveries, counting `finishing` running jobs whose run has ended as free */
  private freeSlots(finishing = 0): number {
    return this.opts.concurrency - (this.active.size - finishing) - this.reserved;
  }

  private runOne(deps: Parameters<typeof runDelivery>[0], delivery: Delivery): void {
    const { bossId, workJobId, row } = delivery;
    // pg-boss delivers a job again when it outlives its expiry: never run it twice here
    if (this.runningIds.has(workJobId)) return;
    this.runningIds.add(workJobId);
    const keep = { db: this.opts.db, stop: this.shutdown.signal, log: this.log };
    // a delivery whose row the batch claim did not take goes the per-job way (it ends it)
    const p: Promise<void> = (row ? runClaimed(deps, row, bossId) : runDelivery(deps, workJobId, bossId))
      .then(async (outcome) => {
        if (outcome === 'settled') return;
        if (outcome === 'interrupted') await persist(() => this.handOver(workJobId), { ...keep, what: 'job hand-over' });
        // the delivery itself (a lost settle only means pg-boss delivers it again later: that
        // delivery finds the row final or under a new boss id and does nothing)
        await persist(
          () => (outcome === 'retry' ? this.boss.fail(WORK_QUEUE, bossId, { retry: true }) : this.boss.complete(WORK_QUEUE, bossId)),
          { ...keep, what: 'queue settle' },
        );
      })
      .then(
        () => undefined,
        (err: Error) => this.log.warn({ job: workJobId, err: err.message }, 'job delivery not settled'),
      )
      .finally(() => {
        this.active.delete(p);
        this.runningIds.delete(workJobId);
        // the queue was drained at the last fetch: new work wakes the loop by itself (wake() or the poll)
        if (this.saturated) this.wakeSoon();
      });
    this.active.add(p);
  }

  /**
   * A finished job wakes the loop after the jobs that ended with it (one batched write) have
   * freed their slots too, so the next fetch takes as many as are free, not one.
   */
  private wakeSoon(): void {
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.wakeLoop?.();
    });
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
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'recovery failed');
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
    const settled = () => Promise.allSettled([...this.active]);
    await Promise.race([settled(), new Promise((r) => setTimeout(r, GRACE_MS))]);
    this.shutdown.abort();
    await Promise.race([settled(), new Promise((r) => setTimeout(r, 2_000))]);
    await this.boss.stop({ graceful: true, wait: true, timeout: 2_000 }).catch(() => undefined);
    this.detachBoss();
    if (this.runsWorkers) await this.opts.db.query(`DELETE FROM work_worker WHERE id = $1`, [this.workerId]).catch(() => undefined);
    workersHere.delete(this.workerId);
  }
}
