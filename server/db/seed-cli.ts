/**
 * `npm run seed [-- --scale large]`: migrate and seed the configured database, then exit (the
 * server must be stopped for PGlite). `--scale large` adds the benchmark volume (≥100k shops,
 * 1M orders; docs/business-api.md) on top of the demo data.
 */
import { loadConfig } from '../config.js';
import { seedDemo } from './demo/index.js';
import { migrate } from './migrate.js';
import { openDb } from './open.js';
import { seedAll } from './seed.js';

const args = process.argv.slice(2);
const i = args.indexOf('--scale');
const scale = i >= 0 ? args[i + 1] : (args.find((a) => a.startsWith('--scale='))?.slice(8) ?? 'demo');
if (scale !== 'demo' && scale !== 'large') {
  console.error(`--scale must be demo or large, got "${scale}"`);
  process.exit(2);
}

const config = loadConfig();
const db = await openDb(config);
try {
  const t0 = Date.now();
  const applied = await migrate(db);
  const report = await seedAll(db, config);
  console.log(`migrations applied: ${applied.length ? applied.join(', ') : 'none'}`);
  if (report.admin) console.log(`super admin: ${report.admin.email} / ${report.admin.password}  (shown once)`);
  for (const d of report.demoAccounts) console.log(`demo account: ${d.email} / ${d.password}  (shown once)`);
  if (scale === 'large') {
    const { seedLarge } = await import('./demo/large.js');
    await seedDemo(db); // the demo data first (no-op when present), then the volume
    await seedLarge(db, (s) => console.log(`large seed: ${s}`));
  }
  console.log(`seed done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
} finally {
  await db.close();
}
