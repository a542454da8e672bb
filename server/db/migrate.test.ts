import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, pendingMigrations } from './migrate.js';
import { openPglite } from './pglite.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migrate', () => {
  it('a start with nothing new applies nothing; a migration added since is still applied, once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, '0001_a.sql'), 'CREATE TABLE a (id int);');
    const db = await openPglite('memory://');
    try {
      expect(await pendingMigrations(db, ['0001_a.sql'])).toBeNull(); // no record yet: a new database
      expect(await migrate(db, dir)).toEqual(['0001_a.sql']);
      expect(await migrate(db, dir)).toEqual([]); // the shortcut: one statement, nothing pending
      writeFileSync(path.join(dir, '0002_b.sql'), 'CREATE TABLE b (id int); INSERT INTO a VALUES (1);');
      expect(await pendingMigrations(db, ['0001_a.sql', '0002_b.sql'])).toEqual(['0002_b.sql']);
      expect(await migrate(db, dir)).toEqual(['0002_b.sql']);
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM a')).rows[0].n).toBe(1);
      expect(await migrate(db, dir)).toEqual([]);
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM a')).rows[0].n).toBe(1);
      expect((await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows.map((r) => r.name)).toEqual([
        '0001_a.sql',
        '0002_b.sql',
      ]);
    } finally {
      await db.close();
    }
  });
});
