/**
 * The engine's time. Everything that decides "is it due?" (schedules, call windows, the
 * latest call time, scheduled task starts) reads `clock.now()`, never `new Date()` or SQL
 * `now()`, so tests move time instead of waiting for it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that tests set and move; it does not advance by itself unless `ticking` is on. */
export class ControlledClock implements Clock {
  private offsetMs: number;
  private fixed: number | null;

  constructor(start?: Date | string, opts: { ticking?: boolean } = {}) {
    const at = start === undefined ? Date.now() : new Date(start).getTime();
    this.offsetMs = at - Date.now();
    this.fixed = opts.ticking === false ? at : null;
  }

  now(): Date {
    return new Date(this.fixed ?? Date.now() + this.offsetMs);
  }

  /** jump to an absolute time */
  set(at: Date | string): void {
    const t = new Date(at).getTime();
    if (this.fixed !== null) this.fixed = t;
    else this.offsetMs = t - Date.now();
  }

  /** move forward by `ms` */
  advance(ms: number): void {
    if (this.fixed !== null) this.fixed += ms;
    else this.offsetMs += ms;
  }
}

/** Waits `ms`, or less when `signal` fires (resolves either way; at once when it has fired). */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
