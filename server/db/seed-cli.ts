/** `npm run seed`: migrate and seed the configured database, then exit (the server must be stopped for PGlite). */
import { loadConfig } from '../config.js';
import { migrate } from './migrate.js';
import { openDb } from './open.js';
import { seedAll } from './seed.js';

const config = loadConfig();
const db = await openDb(config);
try {
  const applied = await migrate(db);
  const report = await seedAll(db, config);
  console.log(`migrations applied: ${applied.length ? applied.join(', ') : 'none'}`);
  if (report.admin) console.log(`super admin: ${report.admin.email} / ${report.admin.password}  (shown once)`);
  for (const d of report.demoAccounts) console.log(`demo account: ${d.email} / ${d.password}`);
} finally {
  await db.close();
}
