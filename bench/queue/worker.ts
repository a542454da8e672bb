/**
 * A worker process of the queue bench (bench/queue/procs.ts): the work engine with the no-op
 * kind and the default PostgreSQL concurrency (8), on DATABASE_URL in BENCH_SCHEMA, as
 * `npm run worker` runs it. Reports `QUEUE_READY {}` once it works; SIGTERM stops it.
 */
import { openPg } from '../../server/db/pg.js';
import { JobEngine } from '../../server/jobs/engine.js';
import { noopKind } from '../../server/jobs/noop.js';

const url = process.env.DATABASE_URL!;
const db = await openPg(url, { schema: process.env.BENCH_SCHEMA! });
const engine = new JobEngine({ db, kinds: [noopKind], concurrency: 8, bossSchema: process.env.BENCH_BOSS_SCHEMA! });
await engine.start();
console.log('QUEUE_READY {}');
process.once('SIGTERM', () => {
  void engine
    .stop()
    .then(() => db.close())
    .finally(() => process.exit(0));
});
