/**
 * The engine's tickers (schedules: campaign windows, scheduled task starts, clean-ups): each
 * process that runs workers sends a tick of each ticker every `everySeconds` as a pg-boss
 * singleton (one per period across every process), and works the tick queue one tick at a time.
 */
import type PgBoss from 'pg-boss';
import type { Db } from '../db/db.js';
import { TICK_QUEUE } from './boss.js';
import type { Clock } from './clock.js';
import type { Enqueue, Ticker } from './types.js';

export interface TickOptions {
  db: Db;
  clock: Clock;
  enqueue: Enqueue;
  /** SIGTERM: a tick in progress ends at its next check */
  signal: AbortSignal;
  pollMs: number;
  log: { warn(obj: object, msg?: string): void };
}

/** Starts the tick worker and the tick senders; the timers are the caller's to clear at stop. */
export async function startTickers(boss: PgBoss, list: Ticker[], o: TickOptions): Promise<NodeJS.Timeout[]> {
  const tickers = new Map(list.map((t) => [t.name, t]));
  if (!tickers.size) return [];
  await boss.work<{ name: string }>(TICK_QUEUE, { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, o.pollMs / 1000) }, async ([job]) => {
    const t = tickers.get(job.data.name);
    if (t) await t.run({ db: o.db, now: () => o.clock.now(), enqueue: o.enqueue, signal: o.signal });
  });
  const timers: NodeJS.Timeout[] = [];
  for (const t of tickers.values()) {
    const fire = () =>
      void boss
        .send(TICK_QUEUE, { name: t.name }, { singletonKey: t.name, singletonSeconds: t.everySeconds, retryLimit: 0, expireInSeconds: 300 })
        .catch((err: Error) => o.log.warn({ err: err.message }, 'tick not sent'));
    fire();
    timers.push(setInterval(fire, t.everySeconds * 1000));
  }
  return timers;
}
