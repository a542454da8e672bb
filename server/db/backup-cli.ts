/**
 * `npm run db:backup [-- <file>]` writes a restorable copy of the database.
 *   PGlite (default): a gzipped tarball of the data directory (PGlite dumpDataDir). The server
 *     must be stopped (PGlite is single-process; the data-dir lock says so otherwise).
 *   PostgreSQL (DATABASE_URL): runs `pg_dump --format=custom` (needs the PostgreSQL client tools).
 * `npm run db:backup -- --restore <file>` restores a PGlite tarball into an EMPTY DATA_DIR.
 * See docs/operations.md.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../config.js';
import { DataDirLockedError, acquireDataDirLock } from './lock.js';

const config = loadConfig();
const args = process.argv.slice(2);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');

function fail(msg: string): never {
  console.error(msg);
  process.exit(1);
}

async function backupPglite(file: string) {
  if (!fs.existsSync(path.join(config.dataDir, 'PG_VERSION'))) fail(`no PGlite database in ${config.dataDir}`);
  const release = acquireDataDirLock(config.dataDir);
  try {
    const db = await PGlite.create(config.dataDir);
    await db.query('CHECKPOINT');
    const blob = await db.dumpDataDir('gzip');
    await db.close();
    fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  } finally {
    release();
  }
  console.log(`PGlite backup written to ${file}\nRestore: stop the server, then  DATA_DIR=<empty dir> npm run db:backup -- --restore ${file}`);
}

async function restorePglite(file: string) {
  if (!fs.existsSync(file)) fail(`no such file: ${file}`);
  if (fs.existsSync(config.dataDir) && fs.readdirSync(config.dataDir).length > 0) {
    fail(`DATA_DIR ${config.dataDir} is not empty; restore into an empty directory (move the old one away first)`);
  }
  const release = acquireDataDirLock(config.dataDir);
  try {
    const blob = new Blob([fs.readFileSync(file)]);
    const db = await PGlite.create(config.dataDir, { loadDataDir: blob });
    const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    await db.query('CHECKPOINT');
    await db.close();
    console.log(`restored ${file} into ${config.dataDir} (${r.rows[0].n} migrations recorded)`);
  } finally {
    release();
  }
}

function backupPostgres(file: string) {
  const r = spawnSync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, config.databaseUrl], { stdio: 'inherit' });
  if (r.error) fail(`pg_dump not found (${r.error.message}); install the PostgreSQL client tools`);
  if (r.status !== 0) fail(`pg_dump failed with status ${r.status}`);
  console.log(`PostgreSQL backup written to ${file}\nRestore: pg_restore --no-owner --clean --if-exists -d <DATABASE_URL> ${file}`);
}

try {
  if (args[0] === '--restore') {
    if (config.databaseUrl) fail('with DATABASE_URL, restore with pg_restore (see docs/operations.md)');
    await restorePglite(path.resolve(args[1] ?? fail('usage: npm run db:backup -- --restore <file>')));
  } else {
    const dflt = path.join('backups', `backoffice-${stamp}.${config.databaseUrl ? 'dump' : 'tar.gz'}`);
    const file = path.resolve(args[0] ?? dflt);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (config.databaseUrl) backupPostgres(file);
    else await backupPglite(file);
  }
} catch (err) {
  if (err instanceof DataDirLockedError) fail(`${err.message}\nStop the server before taking a PGlite backup.`);
  throw err;
}
