import type { Db, Queryable, QueryResult } from '../../server/db/db.js';

export interface RecordedQuery {
  sql: string;
  params: unknown[];
  ms: number;
}

/**
 * Wraps the app's database so the bench can see which SQL one request runs (to build the
 * baseline from the exact page query and to EXPLAIN ANALYZE each statement). Recording is
 * off during load runs; the wrapper then costs one check per query (no extra promise).
 */
export function recordingDb(db: Db): { db: Db; record<T>(fn: () => Promise<T>): Promise<{ result: T; queries: RecordedQuery[] }> } {
  let log: RecordedQuery[] | null = null;
  const recorded = async <T,>(q: Queryable, sql: string, params: unknown[]): Promise<QueryResult<T>> => {
    const t0 = performance.now();
    const r = await q.query<T>(sql, params);
    log?.push({ sql, params, ms: performance.now() - t0 });
    return r;
  };
  // not `async`: with recording off a query is the driver's own promise, no extra hop for the app
  const wrapQ = (q: Queryable): Queryable => ({
    query: <T = Record<string, unknown>,>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> =>
      log ? recorded<T>(q, sql, params) : q.query<T>(sql, params),
  });
  const root = wrapQ(db);
  const wrapped: Db = {
    // the driver's own handles (PGlite, pg Pool) stay reachable: the work engine's queue runs on them
    ...db,
    kind: db.kind,
    query: root.query,
    exec: (sql) => db.exec(sql),
    tx: (fn) => db.tx((q) => fn(wrapQ(q))),
    close: () => db.close(),
  };
  return {
    db: wrapped,
    async record(fn) {
      log = [];
      try {
        const result = await fn();
        return { result, queries: log };
      } finally {
        log = null;
      }
    },
  };
}

/** The statement that reads the page rows: the SELECT with an OFFSET (counts and session look-ups have none). */
export function pageQuery(queries: RecordedQuery[]): RecordedQuery | undefined {
  return queries.find((q) => /^\s*SELECT\b/i.test(q.sql) && /\bOFFSET\b/i.test(q.sql) && !/count\(\*\)/i.test(q.sql));
}
