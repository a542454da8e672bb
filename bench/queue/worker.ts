/**
 * A worker process of the queue bench (bench/queue/procs.ts), on DATABASE_URL in BENCH_SCHEMA:
 * - default: the work engine with the no-op kind and the default PostgreSQL concurrency (8), as
 *   `npm run worker` runs it;
 * - BENCH_MODE=pgboss: pg-boss alone (the baseline of the two ÷ one figure): one loop fetching up
 *   to 8 jobs of queue `alone` in schema BENCH_BOSS_SCHEMA and completing them together, as the
 *   in-process baseline of queue.bench.ts does; an empty fetch waits 10 ms.
 * Reports `QUEUE_READY {}` once it works; SIGTERM stops it.
 */
import { openPg } from '../../server/db/pg.js';
import { createBoss } from '../../server/jobs/boss.js';
import { JobEngine } from '../../server/jobs/engine.js';
import { noopKind } from '../../server/jobs/noop.js';

const url = process.env.DATABASE_URL!;
const db = await openPg(url, { schema: process.env.BENCH_SCHEMA! });
let stop: () => Promise<void>;
if (process.env.BENCH_MODE === 'pgboss') {
  const { boss, detach } = createBoss(db, { schema: process.env.BENCH_BOSS_SCHEMA!, supervise: false });
  boss.on('error', () => undefined);
  await boss.start();
  let running = true;
  const loop = (async () => {
    while (running) {
      const jobs = await boss.fetch('alone', { batchSize: 8 }).catch(() => []);
      if (jobs.length) await boss.complete('alone', jobs.map((j) => j.id)).catch(() => undefined);
      else await new Promise((r) => setTimeout(r, 10));
    }
  })();
  stop = async () => {
    running = false;
    await loop;
    detach();
  };
} else {
  const engine = new JobEngine({ db, kinds: [noopKind], concurrency: 8, bossSchema: process.env.BENCH_BOSS_SCHEMA! });
  await engine.start();
  stop = () => engine.stop();
}
console.log('QUEUE_READY {}');
process.once('SIGTERM', () => {
  void stop()
    .then(() => db.close())
    .finally(() => process.exit(0));
});
