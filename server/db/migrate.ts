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
 * Applies every migration not yet recorded in `schema_migrations`, each in its own
 * transaction (the SQL and its record commit together). An advisory lock serialises
 * concurrent starts of several instances on one PostgreSQL. Returns the applied names.
 */
export async function migrate(db: SqlDb, dir = MIGRATIONS_DIR): Promise<string[]> {
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
  for (const file of migrationFiles(dir)) {
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
