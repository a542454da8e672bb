import type { Config } from '../config.js';
import { acquireDataDirLock } from './lock.js';
import { openPg } from './pg.js';
import { openPglite } from './pglite.js';
import type { SqlDb } from './sql-db.js';

/**
 * Opens the database the settings name: PostgreSQL when DATABASE_URL is set, otherwise
 * PGlite in DATA_DIR behind a lock file. `close()` checkpoints, closes and releases the lock.
 */
export async function openDb(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<SqlDb> {
  if (config.databaseUrl) return openPg(config.databaseUrl);
  const release = acquireDataDirLock(config.dataDir);
  try {
    const db = await openPglite(config.dataDir);
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
