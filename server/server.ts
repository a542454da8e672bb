/** The only file that listens: open the database, migrate, seed, build the app, serve. */
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { migrate } from './db/migrate.js';
import { openDb } from './db/open.js';
import { surviveDatabaseErrors } from './db/unavailable.js';
import { seedAll } from './db/seed.js';
import type { SqlDb } from './db/sql-db.js';

const config = loadConfig();
surviveDatabaseErrors((msg) => console.warn(msg));
let db: SqlDb;
try {
  db = await openDb(config);
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.error(`\n${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

const applied = await migrate(db);
const seed = await seedAll(db, config);
const app = await buildApp({ config, db });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await db.close(); // PGlite: CHECKPOINT, close, release the data-dir lock
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
const addr = app.server.address();
const port = addr && typeof addr === 'object' ? addr.port : config.port;
const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
const lines = [
  '',
  `Backoffice Console is running at ${url}`,
  `  database: ${db.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}` +
    (applied.length ? `; migrations applied: ${applied.join(', ')}` : ''),
  `  API docs: ${url}/api/docs`,
  app.jobs.runsWorkers
    ? `  work engine: up to ${config.workers} jobs at once in this process (WORKERS)`
    : '  work engine: API only (WORKERS=0): jobs are enqueued here and run by `npm run worker` processes',
];
if (seed.admin?.generated) {
  lines.push(`  Sign in as ${seed.admin.email} with password: ${seed.admin.password}`);
  lines.push('  (generated now and shown only this once — keep it; change it after signing in)');
} else if (seed.admin) {
  lines.push(`  Sign in as ${seed.admin.email} with the password given in ADMIN_PASSWORD.`);
} else {
  lines.push(`  Sign in with your super admin account (first one: ${config.adminEmail}).`);
}
for (const d of seed.demoAccounts) {
  lines.push(`  Demo account (${d.role}): ${d.email} / ${d.password}  (demo data only; shown only this once)`);
}
console.log(lines.join('\n') + '\n');
