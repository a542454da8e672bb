/**
 * Child process: the steps of server/server.ts one by one, timed, on the bench database — so
 * docs/performance.md can say where start-up time goes. Prints `BENCH_PHASES {...}` (ms).
 * Module loading (tsx compiling the server's imports) is the first phase.
 */
const t0 = performance.now();
const phases: Record<string, number> = {};
let last = t0;
const mark = (name: string) => {
  const now = performance.now();
  phases[name] = Math.round(now - last);
  last = now;
};

const { loadConfig } = await import('../../server/config.js');
const { openDb } = await import('../../server/db/open.js');
const { migrate } = await import('../../server/db/migrate.js');
const { seedAll } = await import('../../server/db/seed.js');
const { buildApp } = await import('../../server/app.js');
const { loadSchemas } = await import('../../server/schemas/index.js');
mark('import modules');
const config = { ...loadConfig(), logLevel: 'silent' };
const db = await openDb(config);
mark('open database');
await migrate(db);
mark('migrate (check)');
await seedAll(db, config);
mark('seed (check)');
await loadSchemas(undefined, { watch: false });
mark('load + validate schemas');
const app = await buildApp({ config, db });
mark('build app');
await app.listen({ port: 0, host: '127.0.0.1' });
mark('listen');
phases.total = Math.round(performance.now() - t0);
await app.close();
await db.close();
console.log(`BENCH_PHASES ${JSON.stringify(phases)}`);

export {};
