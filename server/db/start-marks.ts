/**
 * What a start remembers of the work it did, so the next start on the same database can skip
 * that work when nothing it depends on changed (docs/performance.md, "Start-up"). One row each
 * in `app_setting`, keyed `start.*`; the value names what the work depended on (a fingerprint),
 * and the work is skipped only when the fingerprint is the same. Reading or writing a mark never
 * fails a start: a mark that cannot be read means "do the work", one that cannot be written is
 * written at a later start.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Queryable } from './db.js';

/** The meta-schema check's memo (server/schemas/read.ts ValidationMemo). */
export const SCHEMAS_VALIDATED_MARK = 'start.schemas_validated';
/** The demo seed ran to its end with these sources (server/db/seed.ts). */
export const DEMO_SEEDED_MARK = 'start.demo_seeded';

export async function readMark<T>(db: Queryable, key: string): Promise<T | null> {
  try {
    const r = await db.query<{ value: T }>('SELECT value FROM app_setting WHERE key = $1', [key]);
    return r.rows[0]?.value ?? null;
  } catch {
    return null;
  }
}

/** Writes a mark; false when it could not be written (the work is then done again next time). */
export async function writeMark(db: Queryable, key: string, value: unknown): Promise<boolean> {
  try {
    await db.query(
      `INSERT INTO app_setting (key, value, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, JSON.stringify(value)],
    );
    return true;
  } catch {
    return false;
  }
}

/** sha256 (32 hex digits) over the names and texts of the files under some folders, recursively, plus extra strings. */
export function filesFingerprint(dirs: readonly string[], extra: readonly string[] = []): string {
  const h = createHash('sha256');
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
    } catch {
      h.update(`\0missing ${dir}`);
      continue;
    }
    for (const n of names) {
      const abs = path.join(dir, n);
      if (!fs.statSync(abs).isFile()) continue;
      h.update(`\0${n}\0`).update(fs.readFileSync(abs));
    }
  }
  for (const e of extra) h.update(`\0${e}`);
  return h.digest('hex').slice(0, 32);
}
