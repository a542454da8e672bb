/**
 * Child process: migrate and seed a bench database, then exit. Run by data.ts, never by hand.
 * Env: DATA_DIR or DATABASE_URL, ADMIN_EMAIL, ADMIN_PASSWORD, BENCH_SCALE ('demo' | 'large').
 * Prints `BENCH_SEEDED {...}` on success.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../server/config.js';
import type { Db } from '../../server/db/db.js';
import { migrate } from '../../server/db/migrate.js';
import { openDb } from '../../server/db/open.js';
import { seedAll } from '../../server/db/seed.js';

type SeedDemo = (db: Db, opts?: { scale?: string }) => Promise<void>;

const here = path.dirname(fileURLToPath(import.meta.url));
const demoIndex = path.join(here, '../../server/db/demo/index.ts');
const scale = process.env.BENCH_SCALE ?? 'demo';
const config = { ...loadConfig(), seedDemo: true, logLevel: 'silent' };
const started = Date.now();
const db = await openDb(config);
try {
  const applied = await migrate(db);
  await seedAll(db, config);
  let demo = fs.existsSync(demoIndex);
  if (scale === 'large') {
    if (!demo) throw new Error('server/db/demo/index.ts is missing: no large demo data to seed');
    const mod = (await import('../../server/db/demo/index.js' as string)) as { seedDemo?: SeedDemo };
    if (typeof mod.seedDemo !== 'function') throw new Error('server/db/demo/index.ts exports no seedDemo');
    await mod.seedDemo(db, { scale: 'large' });
    demo = true;
  }
  const counts: Record<string, number | null> = {};
  for (const table of ['shop', 'shop_order']) {
    try {
      const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      counts[table] = r.rows[0].n;
    } catch {
      counts[table] = null;
    }
  }
  if (db.kind === 'pglite') await db.query('VACUUM ANALYZE');
  else await db.query('ANALYZE');
  console.log(`BENCH_SEEDED ${JSON.stringify({ applied, demo, counts, seconds: (Date.now() - started) / 1000 })}`);
} finally {
  await db.close();
}
