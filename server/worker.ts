/**
 * `npm run worker`: a worker-only process (no HTTP API) on the same PostgreSQL as the API
 * instances. Runs the job loops and tickers; any number of these can run beside any number
 * of API-only instances (`WORKERS=0 npm start`). On the embedded PGlite there is one process
 * (the data-dir lock), so `npm start` runs API and workers together instead.
 */
import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { openDb } from './db/open.js';
import { trackWrites } from './db/tracked.js';
import { surviveDatabaseErrors } from './db/unavailable.js';
import { JobEngine } from './jobs/engine.js';
import { jobKinds, tickers } from './jobs/kinds.js';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error(
    '\nnpm run worker needs DATABASE_URL (PostgreSQL): on the embedded database `npm start` already runs the workers in its process.\n',
  );
  process.exit(1);
}
surviveDatabaseErrors((msg) => console.warn(msg));
const concurrency = config.workers || 2;
const db = trackWrites(await openDb(config));
await migrate(db);
const log = {
  info: (obj: object, msg?: string) => config.logLevel !== 'silent' && console.log(JSON.stringify({ level: 'info', msg, ...obj })),
  warn: (obj: object, msg?: string) => config.logLevel !== 'silent' && console.warn(JSON.stringify({ level: 'warn', msg, ...obj })),
};
const engine = new JobEngine({ db, kinds: jobKinds, tickers, concurrency, bossSchema: config.jobsSchema, pollSeconds: config.jobsPollSeconds, log });
await engine.start();
console.log(`Backoffice Console worker ${engine.workerId}: up to ${concurrency} jobs at once on PostgreSQL (queue schema ${config.jobsSchema})`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: finishing running jobs and stopping`);
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  try {
    await engine.stop();
    await db.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
