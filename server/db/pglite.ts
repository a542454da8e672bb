import { PGlite } from '@electric-sql/pglite';
import type { QueryResult } from './db.js';
import type { SqlDb, TxQueryable } from './sql-db.js';

interface PgliteLike {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

/**
 * PGlite runs in this thread and its file writes are synchronous: a chain of queries (a job
 * writing an export batch after batch) resolves in microtasks only and never lets the event loop
 * turn, so every HTTP request waited until the job ended (a list took 2 s during a 40,000-row
 * export). A query that comes more than YIELD_MS after the last turn this code gave waits one
 * turn first (`setImmediate`): a request waits at most about that long plus one query.
 */
const YIELD_MS = 8;
let lastTurn = 0;

const wrap = (conn: PgliteLike): TxQueryable => ({
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    if (performance.now() - lastTurn > YIELD_MS) {
      await new Promise((r) => setImmediate(r));
      lastTurn = performance.now();
    }
    const r = await conn.query<T>(sql, params);
    return { rows: r.rows, affectedRows: r.affectedRows ?? 0 };
  },
  async exec(sql: string) {
    await conn.exec(sql);
  },
});

/**
 * Embedded PostgreSQL (PGlite) stored in `dataDir`. One connection: queries run one at a
 * time and a transaction holds it exclusively, so keep transactions short. The caller owns
 * the data-dir lock (see lock.ts / open.ts).
 */
export async function openPglite(dataDir: string): Promise<SqlDb & { pglite: PGlite }> {
  const pglite = await PGlite.create(dataDir);
  const root = wrap(pglite);
  return {
    kind: 'pglite',
    pglite,
    query: root.query,
    exec: root.exec,
    tx: <T>(fn: (q: TxQueryable) => Promise<T>) => pglite.transaction((t) => fn(wrap(t))),
    async checkpoint() {
      if (!pglite.closed) await pglite.query('CHECKPOINT');
    },
    async close() {
      if (pglite.closed) return;
      await pglite.query('CHECKPOINT');
      await pglite.close();
    },
  };
}
