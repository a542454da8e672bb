import type { Queryable } from '../db/db.js';

/**
 * A store for @fastify/rate-limit (its documented custom-store interface: `incr`, `read`,
 * `child`) kept in the database (table rate_limit_hit), so every instance on one PostgreSQL
 * counts against the same limit; it works the same on PGlite.
 *
 * Fixed windows per key. Not one write per request: the first hit of a key in a window is
 * written at once (it learns the window and what other instances have counted), later hits are
 * counted here and added to the row by one statement per `flushMs` for all keys. So an instance
 * sees the others' hits within `flushMs`, and a request costs a map look-up.
 */
export interface RateLimitResult {
  current: number;
  ttl: number;
}
type Callback = (err: Error | null, res: RateLimitResult) => void;

interface Entry {
  /** the row's count when last written or read */
  hits: number;
  /** hits counted here since, not yet written */
  pending: number;
  /** when the window ends (local clock) */
  resetAt: number;
  window: number;
  /** the first write of the window, while it runs */
  ready: Promise<void> | null;
}

interface Row {
  key: string;
  hits: number;
  ttl: number;
}

const UPSERT = `
INSERT INTO rate_limit_hit AS r (key, hits, reset_at)
SELECT u.k, u.n, now() + make_interval(secs => u.w / 1000.0)
  FROM unnest($1::text[], $2::int[], $3::int[]) AS u(k, n, w)
 ORDER BY u.k
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN r.reset_at <= now() THEN EXCLUDED.hits ELSE r.hits + EXCLUDED.hits END,
  reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
RETURNING r.key, r.hits, (extract(epoch FROM r.reset_at - now()) * 1000)::float8 AS ttl`;

export interface StoreOptions {
  /** how often counted hits are written (ms) */
  flushMs?: number;
  /** a failed write is reported here (the limit then goes on from what is counted locally) */
  onError?: (err: unknown) => void;
}

/** The counters of one app: shared by the store and its children (route limits). */
export class RateLimitCounters {
  private readonly entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private lastPrune = 0;
  private readonly flushMs: number;

  constructor(
    private readonly db: Queryable,
    private readonly opts: StoreOptions = {},
  ) {
    this.flushMs = opts.flushMs ?? 1000;
  }

  private async write(batch: [string, number, number][]): Promise<Map<string, Row>> {
    const r = await this.db.query<Row>(UPSERT, [batch.map((b) => b[0]), batch.map((b) => b[1]), batch.map((b) => b[2])]);
    return new Map(r.rows.map((row) => [row.key, { key: row.key, hits: Number(row.hits), ttl: Number(row.ttl) }]));
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  async incr(key: string, window: number): Promise<RateLimitResult> {
    const now = Date.now();
    const e = this.entries.get(key);
    if (!e || (!e.ready && e.resetAt <= now)) {
      // the first hit here in this window: written now, so the count includes the other instances'
      const entry: Entry = { hits: 0, pending: 0, resetAt: now + window, window, ready: null };
      this.entries.set(key, entry);
      entry.ready = this.write([[key, 1, window]]).then(
        (rows) => {
          const row = rows.get(key);
          if (row) {
            entry.hits = row.hits;
            entry.resetAt = Date.now() + row.ttl;
          }
          entry.ready = null;
        },
        (err) => {
          entry.hits = 1;
          entry.ready = null;
          this.opts.onError?.(err);
        },
      );
      this.start();
      await entry.ready;
      return { current: entry.hits + entry.pending, ttl: Math.max(0, entry.resetAt - Date.now()) };
    }
    e.pending += 1;
    if (e.ready) await e.ready;
    return { current: e.hits + e.pending, ttl: Math.max(0, e.resetAt - Date.now()) };
  }

  read(key: string): RateLimitResult {
    const e = this.entries.get(key);
    const now = Date.now();
    if (!e || e.resetAt <= now) return { current: 0, ttl: 0 };
    return { current: e.hits + e.pending, ttl: e.resetAt - now };
  }

  /** Writes the hits counted since the last flush (one statement) and forgets ended windows. */
  flush(): Promise<void> {
    this.flushing ??= this.doFlush().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async doFlush(): Promise<void> {
    const now = Date.now();
    const batch: [string, number, number][] = [];
    const taken = new Map<string, number>();
    for (const [key, e] of this.entries) {
      if (e.ready) continue;
      if (e.resetAt <= now) {
        // the window is over: its unwritten hits no longer count anywhere
        this.entries.delete(key);
        continue;
      }
      if (e.pending > 0) {
        batch.push([key, e.pending, e.window]);
        taken.set(key, e.pending);
      }
    }
    try {
      if (batch.length > 0) {
        const rows = await this.write(batch);
        for (const [key, n] of taken) {
          const e = this.entries.get(key);
          const row = rows.get(key);
          if (!e || !row) continue;
          e.pending -= n;
          e.hits = row.hits;
          e.resetAt = Date.now() + row.ttl;
        }
      }
      if (now - this.lastPrune > 60_000) {
        this.lastPrune = now;
        await this.db.query(`DELETE FROM rate_limit_hit WHERE reset_at < now() - interval '1 minute'`);
      }
    } catch (err) {
      this.opts.onError?.(err);
    }
    if (this.entries.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Stops the timer after writing what is counted (app close). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}

/**
 * The class @fastify/rate-limit instantiates (`store` option): `new Store(params)`. Keys of a
 * child (a route with its own limit) are prefixed so they never share a count with the global one.
 */
export function rateLimitStore(counters: RateLimitCounters) {
  return class DatabaseRateLimitStore {
    constructor(
      private readonly params: { timeWindow?: unknown } = {},
      private readonly prefix = '',
    ) {}

    incr(key: string, cb: Callback, timeWindow?: number): void {
      const window = typeof timeWindow === 'number' ? timeWindow : Number(this.params.timeWindow) || 60_000;
      counters.incr(this.prefix + key, window).then(
        (res) => cb(null, res),
        (err: Error) => cb(err, { current: 0, ttl: 0 }),
      );
    }

    read(key: string, cb: Callback): void {
      cb(null, counters.read(this.prefix + key));
    }

    /** the plugin passes the route's merged limit settings (its typings say route options) */
    child(routeOptions: object) {
      const o = routeOptions as { routeInfo?: { method?: unknown; url?: unknown }; groupId?: unknown; timeWindow?: unknown };
      const info = o.routeInfo ?? {};
      const name = typeof o.groupId === 'string' ? o.groupId : info.url ? `${String(info.method ?? '')} ${String(info.url)}` : 'child';
      return new DatabaseRateLimitStore(o, `${this.prefix}${name}|`);
    }
  };
}
