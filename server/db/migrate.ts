import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';
import type { SqlDb } from './sql-db.js';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'server/db/migrations');

/** Files named `NNNN_name.sql`, applied in name order. */
export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
}

/**
 * Names of the files not yet recorded in `schema_migrations`, read with one statement and no
 * lock; null when the table does not exist yet (a new database).
 */
export async function pendingMigrations(db: SqlDb, files: readonly string[]): Promise<string[] | null> {
  let rows: Array<{ name: string }>;
  try {
    rows = (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows;
  } catch {
    return null;
  }
  const applied = new Set(rows.map((r) => r.name));
  return files.filter((f) => !applied.has(f));
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, each in its own
 * transaction (the SQL and its record commit together). An advisory lock serialises
 * concurrent starts of several instances on one PostgreSQL. Returns the applied names.
 *
 * A start with nothing to apply costs one statement: the recorded names are read once and,
 * when every file is among them, nothing else runs (the record of applied names is what "nothing
 * changed" means here — a migration is applied by name, once; an applied file is never run again,
 * with or without this shortcut). Any file missing from the record takes the locked path below,
 * which checks each file again under the lock, so two instances starting together still apply a
 * new file once.
 */
export async function migrate(db: SqlDb, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = migrationFiles(dir);
  const pending = await pendingMigrations(db, files);
  if (pending && pending.length === 0) return [];
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock(724311)');
    await q.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
  });
  const applied: string[] = [];
  for (const file of files) {
    if (pending && !pending.includes(file)) continue; // recorded before this call began: stays applied
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    const done = await db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock(724311)');
      const seen = await q.query('SELECT 1 FROM schema_migrations WHERE name = $1', [file]);
      if (seen.rows.length > 0) return false;
      await q.exec(sql);
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      return true;
    });
    if (done) applied.push(file);
  }
  return applied;
}
