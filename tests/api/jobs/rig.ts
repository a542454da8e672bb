/**
 * What the multi-process work-engine tests on PostgreSQL share (outage, partition,
 * interruptions, wake-up, instances): a schema of their own on TEST_DATABASE_URL; server or
 * worker processes on it, each through a TCP proxy of its own when the test cuts the database
 * off from it; and the test's own handle and enqueuer going straight to the database (a cut never
 * reaches the test itself). `close()` undoes all of it in the right order.
 */
import { openPg } from '../../../server/db/pg.js';
import type { SqlDb } from '../../../server/db/sql-db.js';
import { JobEngine } from '../../../server/jobs/engine.js';
import { jobKinds } from '../../../server/jobs/kinds.js';
import { pgSchemaEnv, spawnServer, type ServerProcess } from '../process.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface JobRow {
  id: number;
  state: string;
  attempts: number;
  interruptions: number;
  progress_done: number;
  worker_id: string | null;
}

export interface Rig {
  /** DATABASE_URL (straight to the database) and JOBS_SCHEMA of the rig's schema */
  env: Record<string, string>;
  /** the schema's name (pg-boss's is `${schema}_boss`) */
  schema: string;
  /** every process spawned, in order */
  procs: ServerProcess[];
  /** a server (default) or `server/worker.ts` process on the rig's schema, straight or through `proxy` */
  spawn(env?: Record<string, string>, opts?: { entry?: string; proxy?: TcpProxy }): Promise<ServerProcess>;
  /** a TCP proxy to the database, to cut one process (or several) off and bring it back */
  proxy(): Promise<TcpProxy>;
  /** opens the test's own handle and an enqueue-only engine: after the first process migrated */
  connect(): Promise<void>;
  db: SqlDb;
  sender: JobEngine;
  /** enqueues `n` system.noop jobs in one transaction; their work_job ids */
  enqueueNoop(n: number, data: (i: number) => Record<string, unknown>, opts?: { maxAttempts?: number }): Promise<number[]>;
  rows(ids: number[]): Promise<{ rows: JobRow[] }>;
  /** count per state of these jobs */
  states(ids: number[]): Promise<Record<string, number>>;
  /** work_job_effect rows per marker with this prefix (the no-op job's effect, once per job) */
  effects(prefix: string): Promise<Array<{ marker: string; n: number }>>;
  close(): Promise<void>;
}

/** Is this worker id (host:pid:random) one of process `p`'s? */
export const runsOn = (p: ServerProcess | undefined, workerId: string | null): boolean => !!p && !!workerId?.includes(`:${p.child.pid}:`);

export async function openRig(pgUrl: string): Promise<Rig> {
  const pg = await pgSchemaEnv(pgUrl);
  const target = { host: new URL(pgUrl).hostname, port: Number(new URL(pgUrl).port || 5432) };
  const proxies: TcpProxy[] = [];
  let db: SqlDb | undefined;
  let sender: JobEngine | undefined;
  const rig: Rig = {
    env: pg.env,
    schema: pg.schema,
    procs: [],
    async spawn(env = {}, opts = {}) {
      const url = opts.proxy ? opts.proxy.url(pg.env.DATABASE_URL) : pg.env.DATABASE_URL;
      const p = await spawnServer({ ...pg.env, ...env, DATABASE_URL: url }, opts.entry);
      rig.procs.push(p);
      return p;
    },
    async proxy() {
      const p = await startTcpProxy(target);
      proxies.push(p);
      return p;
    },
    async connect() {
      db = await openPg(pgUrl, { schema: pg.schema });
      sender = new JobEngine({ db, kinds: jobKinds, concurrency: 0, bossSchema: pg.env.JOBS_SCHEMA });
      await sender.start();
    },
    get db() {
      if (!db) throw new Error('rig.connect() first');
      return db;
    },
    get sender() {
      if (!sender) throw new Error('rig.connect() first');
      return sender;
    },
    enqueueNoop(n, data, opts = {}) {
      return rig.db.tx(async (q) => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) out.push((await rig.sender.enqueue(q, 'system.noop', data(i), opts)).id);
        return out;
      });
    },
    rows(ids) {
      return rig.db.query<JobRow>(`SELECT id, state, attempts, interruptions, progress_done, worker_id FROM work_job WHERE id = ANY($1) ORDER BY id`, [ids]);
    },
    async states(ids) {
      const r = await rig.db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM work_job WHERE id = ANY($1) GROUP BY state`, [ids]);
      return Object.fromEntries(r.rows.map((x) => [x.state, x.n]));
    },
    async effects(prefix) {
      const r = await rig.db.query<{ marker: string; n: number }>(
        `SELECT marker, count(*)::int AS n FROM work_job_effect WHERE marker LIKE $1 GROUP BY marker ORDER BY marker`,
        [`${prefix.replace(/[\\%_]/g, '\\$&')}%`],
      );
      return r.rows;
    },
    async close() {
      for (const p of proxies) p.restore();
      await sender?.stop();
      await db?.close();
      await Promise.all(rig.procs.map((p) => p.stop().catch(() => undefined)));
      for (const p of proxies) await p.close();
      await pg.drop();
    },
  };
  return rig;
}
