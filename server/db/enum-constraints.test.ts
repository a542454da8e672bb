/**
 * The database agrees with the enum files: every column server/db/enum-columns.ts lists for an enum
 * of schemas/enums has, after all migrations, exactly one CHECK constraint that allows exactly the
 * enum file's values (`col IN (…)`, or `col <@ ARRAY[…]` for an array column). The constraints are
 * read back from the catalog (pg_constraint), not from the migration text.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnumDef } from '../../src/contract/enums.js';
import { DEFAULT_SCHEMAS_DIR } from '../schemas/loader.js';
import { ENUM_COLUMNS } from './enum-columns.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import type { SqlDb } from './sql-db.js';

const enumFile = (id: string): EnumDef => JSON.parse(fs.readFileSync(path.join(DEFAULT_SCHEMAS_DIR, 'enums', `${id}.json`), 'utf8')) as EnumDef;
const declared = Object.entries(ENUM_COLUMNS).flatMap(([enumId, cols]) =>
  (cols ?? []).map((column) => ({ enumId, column, values: enumFile(enumId).items.map((i) => i.value) })),
);

/**
 * The values a CHECK constraint allows, from PostgreSQL's own rendering of it (pg_get_constraintdef):
 * `(x = ANY (ARRAY[0, 1]))`, `((x)::text = ANY ((ARRAY['a'::character varying, …])::text[]))`,
 * `(x <@ '{1,2}'::smallint[])`, `(x = 1)`. Null when the constraint is no list of values.
 */
export function allowedValues(def: string): Array<string | number> | null {
  const literal = (s: string): string | number => {
    let t = s.trim();
    for (let prev = ''; prev !== t; ) {
      prev = t;
      t = t.replace(/::[\w\s]+(\[\])?$/, '').trim();
      if (/^\(.*\)$/.test(t)) t = t.slice(1, -1).trim();
    }
    if (/^'.*'$/.test(t)) return t.slice(1, -1).replace(/''/g, "'");
    if (/^-?\d+$/.test(t)) return Number(t);
    throw new Error(`unreadable literal ${s} in ${def}`);
  };
  const array = /= ANY \(\(?ARRAY\[(.*?)\]/.exec(def) ?? /<@ \(?ARRAY\[(.*?)\]/.exec(def);
  if (array) return array[1].split(',').map(literal);
  const braces = /<@ '\{(.*?)\}'::/.exec(def);
  if (braces) return braces[1].split(',').map((v) => (/^-?\d+$/.test(v) ? Number(v) : v.replace(/^"|"$/g, '')));
  const single = /^CHECK \(\(?\(?\w+\)?(?:::\w+)? = ('(?:[^']|'')*'|-?\d+)(?:::[\w\s]+)?\)\)?$/.exec(def);
  if (single) return [literal(single[1])];
  return null;
}

const sorted = (vs: Array<string | number>) => [...vs].map(String).sort();

describe('enum files and database CHECK constraints', () => {
  let dir: string;
  let db: SqlDb;
  /** `table.column` → the definitions of its single-column CHECK constraints */
  const checks = new Map<string, string[]>();
  const columns = new Set<string>();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'enum-checks-'));
    db = await openPglite(dir);
    await migrate(db);
    const r = await db.query<{ tbl: string; col: string; def: string }>(
      `SELECT cl.relname AS tbl, a.attname AS col, pg_get_constraintdef(c.oid) AS def
         FROM pg_constraint c
         JOIN pg_class cl ON cl.oid = c.conrelid
         JOIN pg_namespace n ON n.oid = cl.relnamespace AND n.nspname = current_schema()
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'c' AND cardinality(c.conkey) = 1`,
    );
    for (const row of r.rows) {
      const key = `${row.tbl}.${row.col}`;
      checks.set(key, [...(checks.get(key) ?? []), row.def]);
    }
    const cols = await db.query<{ c: string }>(
      `SELECT table_name || '.' || column_name AS c FROM information_schema.columns WHERE table_schema = current_schema()`,
    );
    for (const row of cols.rows) columns.add(row.c);
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the forms PostgreSQL renders', () => {
    expect(allowedValues('CHECK ((plugin_status = ANY (ARRAY[0, 1, 2])))')).toEqual([0, 1, 2]);
    expect(allowedValues("CHECK (((env)::text = ANY ((ARRAY['dev'::character varying, 'pre'::character varying])::text[])))")).toEqual(['dev', 'pre']);
    expect(allowedValues("CHECK ((target_types <@ '{1,2,3,4}'::smallint[]))")).toEqual([1, 2, 3, 4]);
    expect(allowedValues('CHECK ((target_types <@ ARRAY[(1)::smallint, (2)::smallint]))')).toEqual([1, 2]);
    expect(allowedValues('CHECK ((id = 1))')).toEqual([1]);
    expect(allowedValues('CHECK (((rating >= 1) AND (rating <= 5)))')).toBeNull();
  });

  it('the list names columns', () => {
    expect(declared.length).toBeGreaterThan(20);
  });

  it.each(declared.map((d) => [`${d.enumId} → ${d.column}`, d] as const))('%s', (_name, d) => {
    expect(columns.has(d.column), `${d.column} (schemas/enums/${d.enumId}.json) is no column of the migrated database`).toBe(true);
    const lists = (checks.get(d.column) ?? []).map((def) => ({ def, values: allowedValues(def) })).filter((c) => c.values);
    expect(lists.map((c) => c.def), `${d.column} should have exactly one CHECK constraint listing its values`).toHaveLength(1);
    expect(sorted(lists[0].values!), `${d.column}: ${lists[0].def} against schemas/enums/${d.enumId}.json`).toEqual(sorted(d.values));
  });
});
