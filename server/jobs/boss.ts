import PgBoss from 'pg-boss';
import type { Queryable } from '../db/db.js';
import type { SqlDb } from '../db/sql-db.js';

/** The pg-boss queues the engine uses: one for work (every kind), one for ticks. */
export const WORK_QUEUE = 'work';
export const TICK_QUEUE = 'tick';

interface PgliteRaw {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>;
  exec(sql: string): Promise<Array<{ rows: unknown[]; affectedRows?: number }>>;
}
interface PoolRaw {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * pg-boss's `db` executor over the app's own database handle, so the queue runs on the
 * embedded PGlite exactly as on PostgreSQL (one connection pool, one set of credentials).
 * PGlite's extended protocol takes one statement: pg-boss's multi-statement migrations
 * (sent without parameters) go through `exec`.
 */
export function bossExecutor(db: SqlDb): PgBoss.Db {
  const raw = db as SqlDb & { pglite?: PgliteRaw; pool?: PoolRaw };
  if (raw.pglite) {
    const p = raw.pglite;
    return {
      async executeSql(text: string, values?: unknown[]) {
        if (values && values.length) {
          const r = await p.query(text, values);
          return { rows: r.rows, rowCount: r.affectedRows ?? 0 };
        }
        const all = await p.exec(text);
        const last = all[all.length - 1];
        return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 };
      },
    };
  }
  if (raw.pool) {
    const pool = raw.pool;
    return { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) };
  }
  return { executeSql: (text: string, values?: unknown[]) => db.query(text, values) };
}

/** pg-boss's executor inside the caller's transaction (an enqueue commits with the change). */
export const txExecutor = (q: Queryable): PgBoss.Db => ({
  executeSql: (text: string, values?: unknown[]) => q.query(text, values ?? []),
});

export interface BossOptions {
  /** database schema pg-boss keeps its tables in */
  schema: string;
  /** run maintenance (expiry of lost jobs, archiving); only processes that run workers */
  supervise: boolean;
}

/** A pg-boss instance and the switch that detaches it from the database at shutdown. */
export interface Boss {
  boss: PgBoss;
  /**
   * After the engine's stop: pg-boss calls that still arrive (a worker loop that outlived the
   * stop's timeout marking its job failed) never settle — not a closed pool's error, nor a made-up
   * empty result (pg-boss reads `rows[0].count` of a command's result), either of which pg-boss
   * would leave as an unhandled rejection. A promise that never settles holds no timer, so the
   * process still exits. Such a job stays 'active' and is recovered on the next start, as after a
   * kill -9.
   */
  detach(): void;
}

export function createBoss(db: SqlDb, opts: BossOptions): Boss {
  const exec = bossExecutor(db);
  let detached = false;
  const boss = new PgBoss({
    db: {
      executeSql: (text: string, values: Parameters<PgBoss.Db['executeSql']>[1]) =>
        detached ? new Promise<never>(() => undefined) : exec.executeSql(text, values),
    },
    schema: opts.schema,
    supervise: opts.supervise,
    // schedules are decided by the engine's tickers against the injected clock (server/jobs/ticks.ts)
    schedule: false,
    migrate: true,
    maintenanceIntervalSeconds: 30,
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 7,
  });
  return {
    boss,
    detach: () => {
      detached = true;
    },
  };
}
