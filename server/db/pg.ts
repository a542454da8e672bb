import pg from 'pg';
import type { QueryResult } from './db.js';
import type { SqlDb, TxQueryable } from './sql-db.js';

// int8 (count(*), bigserial) as a JS number, as PGlite does; numeric stays a string on both.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

interface PgConn {
  query(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
}

const wrap = (conn: PgConn): TxQueryable => ({
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    const r = await conn.query(sql, params);
    return { rows: r.rows as T[], affectedRows: r.rowCount ?? 0 };
  },
  async exec(sql: string) {
    await conn.query(sql);
  },
});

export interface PgOptions {
  /** set `search_path` on every connection (tests use a fresh schema per file) */
  schema?: string;
  max?: number;
}

/** PostgreSQL through a `pg` Pool. Stateless: many app instances can share one database. */
export async function openPg(url: string, opts: PgOptions = {}): Promise<SqlDb & { pool: pg.Pool }> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    types,
    // a database behind a dead link (a partition) fails a connect in 10 s instead of hanging
    // forever; keep-alive notices a dead idle socket
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    ...(opts.schema ? { options: `-c search_path=${JSON.stringify(opts.schema)}` } : {}),
  });
  // A client's socket can die at any time (the database stops: 57P01, then "Connection terminated
  // unexpectedly"; a proxy or the network cuts it). node-postgres reports it as an 'error' event on
  // the client, and an 'error' event nobody listens to ends the process. The pool listens on idle
  // clients (re-emitted here) and for the span of `pool.query`; `tx` listens on the client it holds.
  // The query running on it, if any, fails with the error; the pool drops the dead client.
  pool.on('error', () => {
    /* idle client errors are reported by the next query; never crash the process here */
  });
  await pool.query('SELECT 1');
  const root = wrap(pool);
  return {
    kind: 'postgres',
    pool,
    query: root.query,
    exec: root.exec,
    async tx<T>(fn: (q: TxQueryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken ??= err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        if (!broken) await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        // a broken client is released with its error: the pool closes it instead of reusing it
        client.release(broken);
        client.removeListener('error', onError);
      }
    },
    async checkpoint() {},
    async close() {
      await pool.end();
    },
  };
}
