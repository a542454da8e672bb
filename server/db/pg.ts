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
  const connection: pg.ClientConfig = {
    connectionString: url,
    types,
    // a database behind a dead link (a partition) fails a connect in 10 s instead of hanging
    // forever; keep-alive notices a dead idle socket
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    ...(opts.schema ? { options: `-c search_path=${JSON.stringify(opts.schema)}` } : {}),
  };
  const pool = new pg.Pool({ ...connection, max: opts.max ?? 10 });
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
    listen: (channel, onNotify) => keepListening(connection, channel, onNotify),
    async close() {
      await pool.end();
    },
  };
}

/**
 * A LISTEN connection that outlives the database's outages: on any loss (an error, the server
 * gone) it connects again after 0.5 s, doubling to 5 s, and LISTENs again. Its errors never
 * reach the process ('error' is listened to; the 'end' that follows schedules the reconnect).
 */
function keepListening(config: pg.ClientConfig, channel: string, onNotify: () => void): () => Promise<void> {
  let current: pg.Client | null = null;
  let closed = false;
  let wait = 500;
  let timer: NodeJS.Timeout | undefined;
  const again = () => {
    if (closed) return;
    timer = setTimeout(() => void connect(), wait);
    timer.unref();
    wait = Math.min(wait * 2, 5_000);
  };
  const connect = async () => {
    const c = new pg.Client(config);
    c.on('error', () => {
      /* the connection is lost: its 'end' follows */
    });
    c.on('notification', (m) => {
      if (m.channel === channel) onNotify();
    });
    c.on('end', () => {
      if (current !== c) return;
      current = null;
      again();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${c.escapeIdentifier(channel)}`);
    } catch {
      void c.end().catch(() => undefined);
      again();
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    current = c;
    wait = 500;
    onNotify();
  };
  void connect();
  return async () => {
    closed = true;
    clearTimeout(timer);
    const c = current;
    current = null;
    await c?.end().catch(() => undefined);
  };
}
