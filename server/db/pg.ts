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
    ...(opts.schema ? { options: `-c search_path=${JSON.stringify(opts.schema)}` } : {}),
  });
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
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async checkpoint() {},
    async close() {
      await pool.end();
    },
  };
}
