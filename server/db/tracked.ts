/**
 * Reads that may be kept for a moment, and forgotten as soon as this process writes.
 *
 * `trackWrites(db)` wraps a database so every statement that is not a plain read bumps a
 * version for each table it names (before it runs, and again once it is visible: after the
 * statement, or after the transaction ends). `memo(key, tables, ttl, compute)` keeps the
 * result of a read under the versions of the tables it depends on, taken *before* the read
 * ran: a write that overlaps the read leaves the entry stale at once, never a stale value
 * current. Writes by other processes (several servers on one PostgreSQL) are not seen; the
 * TTL bounds how long they go unnoticed (docs/architecture.md, "Short-lived read caches").
 */
import type { Db, Queryable } from './db.js';

const TRACKER = Symbol.for('backoffice.writeTracker');

const READ = /^\s*(?:SELECT|EXPLAIN|SHOW|VALUES)\b/i;
const WRITE_IN_CTE = /\b(?:INSERT|UPDATE|DELETE|TRUNCATE|MERGE)\b/i;
const TABLE_REF = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE)\s+(?:ONLY\s+)?(?:"?[a-z_][a-z0-9_]*"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;

/** Whether a statement can change rows (a `WITH` read counts as a write if it holds one). */
export function isWrite(sql: string): boolean {
  // the common case, without a regular expression over the whole statement
  if (sql.startsWith('SELECT ')) return false;
  if (READ.test(sql)) return false;
  if (/^\s*WITH\b/i.test(sql)) return WRITE_IN_CTE.test(sql);
  return true;
}

/** The tables of recent statement texts: the same few texts come back on every request. */
const tablesSeen = new Map<string, readonly string[]>();
const TABLES_SEEN_MAX = 500;

/** Every table a statement names after FROM / JOIN / INTO / UPDATE / TABLE (lower case). */
export function tablesIn(sql: string): readonly string[] {
  const seen = tablesSeen.get(sql);
  if (seen) return seen;
  const out = new Set<string>();
  for (const m of sql.matchAll(TABLE_REF)) out.add(m[1].toLowerCase());
  const tables = Object.freeze([...out]);
  if (tablesSeen.size >= TABLES_SEEN_MAX) tablesSeen.delete(tablesSeen.keys().next().value as string);
  tablesSeen.set(sql, tables);
  return tables;
}

interface Entry {
  /** `writes` when the read started: unchanged since, the stamp needs no comparing */
  writes: number;
  stamp: string;
  at: number;
  value: Promise<unknown>;
}

export class WriteTracker {
  private readonly versions = new Map<string, number>();
  /** bumped by statements whose tables cannot be told (multi-statement exec): every entry goes */
  private epoch = 0;
  private readonly entries = new Map<string, Entry>();
  /** bumps of any table so far */
  private writes = 0;

  constructor(private readonly maxEntries = 2000) {}

  /** the versions of `tables` now, as one comparable string */
  stamp(tables: readonly string[]): string {
    let s = String(this.epoch);
    for (const t of tables) s += `.${this.versions.get(t) ?? 0}`;
    return s;
  }

  bump(tables: Iterable<string>): void {
    this.writes += 1;
    let any = false;
    for (const t of tables) {
      this.versions.set(t, (this.versions.get(t) ?? 0) + 1);
      any = true;
    }
    if (!any) this.epoch += 1;
  }

  bumpAll(): void {
    this.writes += 1;
    this.epoch += 1;
  }

  /**
   * The value of `compute()`, reused while none of `tables` was written here and it is younger
   * than `ttlMs`. Concurrent callers share one computation. A rejected computation, or a value
   * `keep` refuses, is not kept.
   */
  memo<T>(key: string, tables: readonly string[], ttlMs: number, compute: () => Promise<T>, keep: (v: T) => boolean = () => true): Promise<T> {
    // not `async`: a hit hands back the kept promise itself, with no promise wrapped around it
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < ttlMs && (hit.writes === this.writes || hit.stamp === this.stamp(tables))) return hit.value as Promise<T>;
    const writes = this.writes;
    const stamp = this.stamp(tables);
    let value: Promise<T>;
    try {
      value = compute();
    } catch (err) {
      return Promise.reject(err);
    }
    const entry: Entry = { writes, stamp, at: now, value };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const drop = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    value.then((v) => !keep(v) && drop(), drop);
    return value;
  }

  /** forgets every kept value (tests, and writes made around the tracked handle) */
  clear(): void {
    this.entries.clear();
    this.writes += 1;
    this.epoch += 1;
  }
}

/** The tracker behind a handle from `trackWrites` (or a transaction of one); undefined otherwise. */
export function trackerOf(q: Queryable): WriteTracker | undefined {
  return (q as { [TRACKER]?: WriteTracker })[TRACKER];
}

function trackedQuery(q: Queryable, tracker: WriteTracker, touched: Set<string> | null): Queryable['query'] {
  const write = async <T,>(sql: string, params?: unknown[]) => {
    const tables = tablesIn(sql);
    tracker.bump(tables);
    if (touched) {
      for (const t of tables) touched.add(t);
      if (tables.length === 0) touched.add('*');
      return q.query<T>(sql, params);
    }
    try {
      return await q.query<T>(sql, params);
    } finally {
      tracker.bump(tables);
    }
  };
  // a read goes straight to the driver (its promise as it is); only writes are tracked
  return <T,>(sql: string, params?: unknown[]) => (isWrite(sql) ? write<T>(sql, params) : q.query<T>(sql, params));
}

/** Wraps `db` so its writes are tracked; a handle already tracked is returned as it is. */
export function trackWrites<D extends Db>(db: D): D {
  if (trackerOf(db)) return db;
  const tracker = new WriteTracker();
  const wrapTx = (t: Queryable & { exec?: (sql: string) => Promise<void> }, touched: Set<string>): Queryable => {
    const out: Queryable & { exec?: (sql: string) => Promise<void>; [TRACKER]: WriteTracker } = {
      query: trackedQuery(t, tracker, touched),
      [TRACKER]: tracker,
    };
    if (t.exec) {
      const exec = t.exec.bind(t);
      out.exec = async (sql: string) => {
        touched.add('*');
        tracker.bumpAll();
        await exec(sql);
      };
    }
    return out;
  };
  return {
    ...db,
    [TRACKER]: tracker,
    query: trackedQuery(db, tracker, null),
    async exec(sql: string) {
      tracker.bumpAll();
      try {
        await db.exec(sql);
      } finally {
        tracker.bumpAll();
      }
    },
    async tx<T>(fn: (q: never) => Promise<T>): Promise<T> {
      const touched = new Set<string>();
      try {
        return await db.tx((t) => fn(wrapTx(t, touched) as never));
      } finally {
        // committed or rolled back: what was kept while it ran is stale either way
        if (touched.has('*')) tracker.bumpAll();
        const tables = [...touched].filter((t) => t !== '*');
        if (tables.length) tracker.bump(tables);
      }
    },
  };
}
