/**
 * One small database interface over both drivers (PGlite embedded, `pg` for PostgreSQL).
 * Always parameterised SQL ($1, $2, ...); never string-built values.
 */
export interface QueryResult<T> {
  rows: T[];
  affectedRows: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Db extends Queryable {
  /** Runs `fn` in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by `;` (migrations only). */
  exec(sql: string): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}
