/** The only file that listens: open the database, migrate, seed, build the app, serve. */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { loadConfig, type Config } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { openDb } from './db/open.js';
import { surviveDatabaseErrors } from './db/unavailable.js';
import type { SqlDb } from './db/sql-db.js';

// the app's modules and its routes load first (PGlite's start is main-thread work too, and the
// V8 flag below is best set once node's own modules are loaded: see openEmbedded)
const modules = Promise.all([
  import('./app.js'),
  import('./db/migrate.js'),
  import('./db/seed.js'),
  import('./routes/index.js').then((m) => m.allRoutes()),
]);
modules.catch(() => {}); // awaited below, where a failure stops the start

// phases of the start (ms since the process began: node's own start and the imports come first),
// printed as `BENCH_PHASES {…}` when BENCH_PHASES=1 (bench/startup) and summed in the banner
// (and CPU ms of each phase under `cpu`: on a busy machine the wall clock says little; `cpu` is
// the whole process's, with V8's compiler and GC threads; `main` the main thread's alone, Linux
// only, in 10 ms ticks)
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const mainCpuMs = () => {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
};
const phases: Record<string, number> = { 'node + imports': Math.round(performance.now()) };
const cpu: Record<string, number> = { 'node + imports': Math.round(cpuMs()) };
const main: Record<string, number> = { 'node + imports': mainCpuMs() };
let phaseAt = performance.now();
let cpuAt = cpuMs();
let mainAt = main['node + imports'];
const phase = (name: string) => {
  const now = performance.now();
  const c = cpuMs();
  const m = mainCpuMs();
  phases[name] = Math.round(now - phaseAt);
  cpu[name] = Math.round(c - cpuAt);
  main[name] = m - mainAt;
  phaseAt = now;
  cpuAt = c;
  mainAt = m;
};

/** How long after listening the work engine's workers start (see below). */
const WORKERS_AFTER_LISTEN_MS = 1000;

/**
 * PGlite's PostgreSQL is WebAssembly, which V8 runs first with its baseline compiler and
 * recompiles with its optimizing one, function by function, once a function has used its tiering
 * budget. With the default budget, much of what PostgreSQL runs once at start (reading the
 * catalogs, zeroing shared memory) went to the optimizing compiler, whose threads spent ≈ 0.4 s of
 * CPU beside a start's ≈ 1.1 s main thread on 2 cores. The first budget of every function is made
 * 10× larger while PGlite starts; after that refills are V8's default again (1,800,000 in node
 * 20–22), so what runs on is optimized as before. The flag goes back at once because a changed
 * flag set makes V8 refuse node's code cache for the built-in modules loaded meanwhile (≈ 1 ms of
 * CPU each; docs/performance.md "Start-up").
 */
async function openEmbedded(config: Config): Promise<SqlDb> {
  setFlagsFromString('--wasm-tiering-budget=18000000');
  try {
    return await openDb(config);
  } finally {
    setFlagsFromString('--wasm-tiering-budget=1800000');
  }
}

const config = loadConfig();
surviveDatabaseErrors((msg) => console.warn(msg));
// PostgreSQL: the connection opens while the modules load (no WebAssembly, no flag to set)
const postgres = config.databaseUrl ? openDb(config) : null;
postgres?.catch(() => {}); // awaited below
const [{ buildApp }, { migrate }, { seedAll }, routes] = await modules;
phase('imports (app, routes)');
let db: SqlDb;
try {
  db = await (postgres ?? openEmbedded(config));
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.error(`\n${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
phase('open database');

const applied = await migrate(db);
phase('migrate');
const seed = await seedAll(db, config, { demoOnce: true });
phase('seed');
const app = await buildApp({ config, db, routes, onPhase: phase, workersLater: true });
phase('build app');

let closing = false;
async function shutdown(signal: string, exitCode = 0) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await db.close(); // PGlite: CHECKPOINT, close, release the data-dir lock
  } finally {
    process.exit(exitCode);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
phase('listen');
phases.total = Math.round(performance.now());
cpu.total = Math.round(cpuMs());
main.total = mainCpuMs();
if (process.env.BENCH_PHASES === '1') console.log(`BENCH_PHASES ${JSON.stringify({ ...phases, cpu, main })}`);
// The worker loops, the recovery of jobs left by an earlier process and the first ticks start a
// second after the server answers: on PGlite their queries share the one connection (and the one
// thread) with requests, so the first page load is not queued behind them. Jobs enqueued before
// then wait in the queue (/readyz says "ready" once the queue runs, as before).
setTimeout(() => {
  if (closing) return;
  // (it waits out a database that went away; it throws when the process began to stop, or on
  // an error that is not the database being away)
  app.jobs.startWorkers().catch((err: Error) => {
    if (closing) return;
    console.error(`The work engine could not start its workers: ${err.message}`);
    void shutdown('workers failed', 1);
  });
}, WORKERS_AFTER_LISTEN_MS);
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
const addr = app.server.address();
const port = addr && typeof addr === 'object' ? addr.port : config.port;
const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
const lines = [
  '',
  `Backoffice Console is running at ${url} (started in ${(phases.total / 1000).toFixed(1)} s)`,
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
