/**
 * The engine's work loop (one per process that runs workers): fetches as many deliveries as
 * there are free slots and runs each job on its own; refills the slots that a batch of final
 * writes frees in the same statement (batch.ts Finisher); wakes at once on a notification or a
 * local enqueue, else polls. engine.ts owns the queue, the liveness and the stop.
 */
import type PgBoss from 'pg-boss';
import type { Db } from '../db/db.js';
import { WORK_QUEUE } from './boss.js';
import { claimBatch, type Delivery, type Refill } from './batch.js';
import { persist, runClaimed, runDelivery, type RunnerDeps } from './runner.js';

export interface WorkLoopOptions {
  db: Db;
  boss: PgBoss;
  /** pg-boss's job table, quoted */
  bossTable: string;
  workerId: string;
  concurrency: number;
  pollMs: number;
  /** SIGTERM: no new fetches */
  draining: AbortSignal;
  /** the grace period is over: writes waiting out an outage give up */
  shutdown: AbortSignal;
  log: RunnerDeps['log'];
  /** a job this worker was running was interrupted: queue it again (no attempt spent) */
  handOver(id: number): Promise<void>;
}

export class WorkLoop {
  /** the jobs running in this process (their delivery settled when the promise ends) */
  readonly active = new Set<Promise<void>>();
  /** work_job ids running in this process (a second delivery of one is not started beside it) */
  private readonly runningIds = new Set<number>();
  private wakeLoop: (() => void) | null = null;
  /** a wake-up came while the loop was not waiting: it fetches again at once */
  private wakePending = false;
  private saturated = false;
  private wakeScheduled = false;
  /** wake()'s timer while one is pending */
  private wakeTimer: NodeJS.Timeout | null = null;
  /** slots a fetch in flight (the loop's, or a final write's refill) will fill */
  private reserved = 0;
  private deps: RunnerDeps | null = null;
  private readonly claim: ReturnType<typeof claimBatch>;
  /** when the loop's claim and a final write's refill in flight began (null: none in flight) */
  private claimSince: number | null = null;
  private refillSince: number | null = null;

  constructor(private readonly o: WorkLoopOptions) {
    this.claim = claimBatch(o.db, o.bossTable);
  }

  /** what the Finisher's writes claim for the slots their jobs free (batch.ts) */
  readonly refill: Refill = {
    take: (finishing: number) => {
      const k = this.o.draining.aborted || !this.saturated ? 0 : Math.max(0, this.freeSlots(finishing));
      this.reserved += k;
      if (k) this.refillSince = Date.now();
      return k;
    },
    got: (ds: Delivery[], asked: number) => {
      this.refillSince = null;
      if (this.deps) for (const d of ds) this.runOne(this.deps, d);
      this.reserved -= asked;
      this.saturated = ds.length === asked;
    },
  };

  start(deps: RunnerDeps): void {
    this.deps = deps;
    void this.loop(deps);
  }

  /** work may be there (a notification): the idle loop fetches now, a busy one as soon as it is done */
  nudge(): void {
    if (this.wakeLoop) {
      // idle: fetch now (and, with no free slot, as soon as a job ends)
      this.saturated = true;
      this.wakeLoop();
    } else this.wakePending = true;
  }

  /**
   * a hint to this process's idle loop that work may be there (the commit comes just after); one
   * timer at a time: a transaction that enqueues thousands of jobs wakes the loop (and costs an
   * empty fetch while it is not committed) once per 30 ms, not once per job
   */
  wake(): void {
    if (!this.wakeLoop || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.wakeLoop?.();
    }, 30);
    this.wakeTimer.unref();
  }

  /**
   * Fetches as many jobs as there are free slots (`concurrency`) and runs each on its own:
   * a long job (a task run, a campaign) never holds up short ones, and each job is completed
   * or failed (→ pg-boss retry with backoff) by itself. Sleeps `pollMs` when idle, less
   * when a slot frees, a local enqueue wakes it or (PostgreSQL) an enqueue anywhere notifies it.
   */
  private async loop(deps: RunnerDeps): Promise<void> {
    const { draining } = this.o;
    while (!draining.aborted) {
      const free = this.freeSlots();
      let fetched = 0;
      if (free > 0) {
        this.reserved += free;
        this.claimSince = Date.now();
        try {
          // fetch and claim in one statement (batch.ts)
          const jobs = await this.claim(WORK_QUEUE, this.o.workerId, free);
          fetched = jobs.length;
          for (const job of jobs) this.runOne(deps, job);
        } catch (err) {
          if (!draining.aborted) this.o.log.warn({ err: (err as Error).message }, 'fetch failed');
        } finally {
          this.reserved -= free;
          this.claimSince = null;
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
        const t = setTimeout(done, this.o.pollMs);
        function done() {
          clearTimeout(t);
          draining.removeEventListener('abort', done);
          resolve();
        }
        this.wakeLoop = done;
        draining.addEventListener('abort', done, { once: true });
      });
      this.wakeLoop = null;
    }
  }

  /**
   * Of `ids` (rows 'running' under this worker, last changed over `ms` ago), those this process
   * is not running: claimed by a statement whose answer was lost (the connection was cut after
   * the commit) or left by a run whose final write could not be made. Empty while a claim begun
   * more than `ms` ago is still in flight: its rows may be on their way to this process.
   */
  orphans(ids: number[], ms: number): number[] {
    const since = Math.min(this.claimSince ?? Infinity, this.refillSince ?? Infinity);
    if (Date.now() - since >= ms) return [];
    return ids.filter((id) => !this.runningIds.has(id));
  }

  /** slots free for new deliveries, counting `finishing` running jobs whose run has ended as free */
  private freeSlots(finishing = 0): number {
    return this.o.concurrency - (this.active.size - finishing) - this.reserved;
  }

  private runOne(deps: RunnerDeps, delivery: Delivery): void {
    const { bossId, workJobId, row } = delivery;
    // pg-boss delivers a job again when it outlives its expiry: never run it twice here
    if (this.runningIds.has(workJobId)) return;
    this.runningIds.add(workJobId);
    const keep = { db: this.o.db, stop: this.o.shutdown, log: this.o.log };
    const { boss } = this.o;
    // a delivery whose row the batch claim did not take goes the per-job way (it ends it)
    const p: Promise<void> = (row ? runClaimed(deps, row, bossId) : runDelivery(deps, workJobId, bossId))
      .then(async (outcome) => {
        if (outcome === 'settled') return;
        if (outcome === 'interrupted') await persist(() => this.o.handOver(workJobId), { ...keep, what: 'job hand-over' });
        // the delivery itself (a lost settle only means pg-boss delivers it again later: that
        // delivery finds the row final or under a new boss id and does nothing)
        await persist(() => (outcome === 'retry' ? boss.fail(WORK_QUEUE, bossId, { retry: true }) : boss.complete(WORK_QUEUE, bossId)), {
          ...keep,
          what: 'queue settle',
        });
      })
      .then(
        () => undefined,
        (err: Error) => this.o.log.warn({ job: workJobId, err: err.message }, 'job delivery not settled'),
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
}
