import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';
import type { Config } from '../config.js';
import type { Db } from './db.js';
import { maintainEmbedded } from './embedded-maintenance.js';
import { seedCore, type SeedReport } from './seed-core.js';
import { migrationFiles } from './migrate.js';
import { DEMO_SEEDED_MARK, filesFingerprint, readMark, writeMark } from './start-marks.js';

const here = path.join(PROJECT_ROOT, 'server/db');

/**
 * What the demo seed's outcome depends on: its sources (server/db/demo) and the migrations
 * (tables it fills). A change to either runs it again at the next start.
 */
export const demoSeedFingerprint = (): string => filesFingerprint([path.join(here, 'demo')], migrationFiles());

/**
 * Core seed, then — when demo data is on and server/db/demo/index.ts exists — the business
 * demo seed. Contract for that file: `export async function seedDemo(db: Db): Promise<void>`,
 * idempotent (it runs at every start with SEED_DEMO on, after seedCore).
 * `demoOnce` (the server's start): the demo seed's checks are skipped when it already ran to its
 * end on this database with the same sources and migrations (mark start.demo_seeded).
 */
export async function seedAll(
  db: Db,
  config: Pick<Config, 'adminEmail' | 'adminPassword' | 'seedDemo'> & Partial<Pick<Config, 'demoPassword'>>,
  opts: { demoOnce?: boolean } = {},
): Promise<SeedReport> {
  const report = await seedCore(db, {
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    demo: config.seedDemo,
    demoPassword: config.demoPassword,
  });
  if (config.seedDemo && ['index.ts', 'index.js'].some((f) => fs.existsSync(path.join(here, 'demo', f)))) {
    const fingerprint = opts.demoOnce ? demoSeedFingerprint() : '';
    if (fingerprint && (await readMark<{ fingerprint?: string }>(db, DEMO_SEEDED_MARK))?.fingerprint === fingerprint) return report;
    const mod = (await import('./demo/index.js' as string)) as { seedDemo?: (db: Db) => Promise<void> };
    if (typeof mod.seedDemo !== 'function') throw new Error('server/db/demo/index.ts must export seedDemo(db)');
    await mod.seedDemo(db);
    // PGlite has no autovacuum: the tables the demo seed filled get their statistics now rather
    // than at the work engine's first heartbeat (a copy of this database starts with them too)
    if (db.kind === 'pglite') await maintainEmbedded(db);
    if (fingerprint) await writeMark(db, DEMO_SEEDED_MARK, { fingerprint, at: new Date().toISOString() });
  }
  return report;
}
