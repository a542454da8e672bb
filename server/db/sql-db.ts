import type { Db, Queryable } from './db.js';

/** A transaction handle that can also run multi-statement SQL (migrations). */
export interface TxQueryable extends Queryable {
  exec(sql: string): Promise<void>;
}

/** The concrete Db both drivers provide: `tx` hands out a `TxQueryable`. */
export interface SqlDb extends Db {
  tx<T>(fn: (q: TxQueryable) => Promise<T>): Promise<T>;
  /** PGlite only: CHECKPOINT (flush to disk); no-op on PostgreSQL */
  checkpoint(): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on `channel` over a connection of its own, kept open (connected again
   * after any loss); `onNotify` runs on each notification and after each (re)connect (one may
   * have been missed meanwhile). Returns the function that stops listening.
   */
  listen?(channel: string, onNotify: () => void): () => Promise<void>;
}
