import type { Db, Queryable } from '../db/db.js';
import type { Clock } from './clock.js';

export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Thrown by `ctx.progress()` / `ctx.checkpoint()` when someone asked to cancel the job. */
export class JobCancelled extends Error {
  constructor() {
    super('cancelled / 已取消');
  }
}

/**
 * Thrown by `ctx.progress()` / `ctx.checkpoint()` when the process is stopping (SIGTERM): the
 * job ends at this step and is handed over — not a failure of the job (no attempt spent), so a
 * kind's own error handling should leave its records as they are.
 */
export class JobInterrupted extends Error {
  constructor() {
    super('the process is stopping / 进程正在停止');
  }
}

/** A failure that retrying cannot fix (bad input, missing row): the job fails at once. */
export class PermanentJobError extends Error {}

export interface EnqueueOptions {
  /** account that started it (shown on the Jobs page); null for the system (schedules) */
  createdBy?: number | null;
  /** what the job works on, e.g. { type: 'learn_doc', id: 12 } (the pages find their jobs by it) */
  ref?: { type: string; id: number };
  /** shown on the Jobs page; defaults to the kind's title */
  title?: string;
  /** do not start before this time */
  startAfter?: Date;
  /** total attempts before the job fails (default: the kind's, else 3) */
  maxAttempts?: number;
}

/** Adds a job in the caller's transaction (`q`): it commits or rolls back with the change. */
export type Enqueue = <D extends object>(q: Queryable, kind: string, data: D, opts?: EnqueueOptions) => Promise<{ id: number }>;

export interface JobContext<D = Record<string, unknown>> {
  job: { id: number; kind: string; data: D; attempt: number; createdBy: number | null; ref: { type: string; id: number } | null };
  /** the root database (each statement its own transaction; use db.tx for more) */
  db: Db;
  now(): Date;
  /**
   * Records progress (done of total) and heartbeats; throws JobCancelled when a cancel was
   * asked for. Call it after each unit of work (a question, a call, a chunk).
   */
  progress(done: number, total?: number): Promise<void>;
  /** throws JobCancelled when a cancel was asked for (without writing progress) */
  checkpoint(): Promise<void>;
  /** aborted when the job is cancelled or the process stops: pass it to fetch / model calls */
  signal: AbortSignal;
  enqueue: Enqueue;
  log: { info(msg: string, extra?: object): void; warn(msg: string, extra?: object): void };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds kinds of every data type
export interface JobKind<D = any> {
  /** e.g. `doc.learn`; a value of schemas/enums/job_kind.json, which holds its label */
  kind: string;
  /** default title (English / 中文) when the enqueuer gives none */
  title?(data: D): string;
  /** total attempts (default 3); the delay between them doubles from `retryDelaySeconds` (default 5) */
  maxAttempts?: number;
  retryDelaySeconds?: number;
  /** a run longer than this is taken as lost and retried (default 15 min) */
  timeoutSeconds?: number;
  /** returns a small JSON result kept with the job (shown on the Jobs page) */
  run(ctx: JobContext<D>): Promise<unknown>;
}

/**
 * A periodic engine step (a "tick"): runs once per `everySeconds` slot across all workers
 * (pg-boss singleton slot), never listed on the Jobs page. Due-time decisions read `now`.
 */
export interface Ticker {
  name: string;
  everySeconds: number;
  run(ctx: { db: Db; now(): Date; enqueue: Enqueue; signal: AbortSignal }): Promise<void>;
}

export interface EngineDeps {
  clock: Clock;
}
