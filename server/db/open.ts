import type { Config } from '../config.js';
import { acquireDataDirLock } from './lock.js';
import type { SqlDb } from './sql-db.js';

/**
 * Opens the database the settings name: PostgreSQL when DATABASE_URL is set, otherwise
 * PGlite in DATA_DIR behind a lock file. `close()` checkpoints, closes and releases the lock.
 */
export async function openDb(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<SqlDb> {
  // each driver's package is loaded only when it is the one used (a start loads one of them)
  if (config.databaseUrl) return (await import('./pg.js')).openPg(config.databaseUrl);
  const release = acquireDataDirLock(config.dataDir);
  try {
    const db = await (await import('./pglite.js')).openPglite(config.dataDir);
    const close = db.close;
    return {
      ...db,
      async close() {
        try {
          await close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
