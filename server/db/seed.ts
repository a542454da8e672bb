import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';
import type { Config } from '../config.js';
import type { Db } from './db.js';
import { seedCore, type SeedReport } from './seed-core.js';

const here = path.join(PROJECT_ROOT, 'server/db');

/**
 * Core seed, then — when demo data is on and server/db/demo/index.ts exists — the business
 * demo seed. Contract for that file: `export async function seedDemo(db: Db): Promise<void>`,
 * idempotent (it runs at every start with SEED_DEMO on, after seedCore).
 */
export async function seedAll(
  db: Db,
  config: Pick<Config, 'adminEmail' | 'adminPassword' | 'seedDemo'> & Partial<Pick<Config, 'demoPassword'>>,
): Promise<SeedReport> {
  const report = await seedCore(db, {
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    demo: config.seedDemo,
    demoPassword: config.demoPassword,
  });
  if (config.seedDemo && ['index.ts', 'index.js'].some((f) => fs.existsSync(path.join(here, 'demo', f)))) {
    const mod = (await import('./demo/index.js' as string)) as { seedDemo?: (db: Db) => Promise<void> };
    if (typeof mod.seedDemo !== 'function') throw new Error('server/db/demo/index.ts must export seedDemo(db)');
    await mod.seedDemo(db);
  }
  return report;
}
