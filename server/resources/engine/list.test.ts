import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/db.js';
import { countRows, EXACT_COUNT_LIMIT, Sql, toPrefixQuery } from './list.js';

const fakeDb = (planRows: number, exact: number) => {
  const seen: string[] = [];
  const db: Queryable = {
    async query<T>(sql: string) {
      seen.push(sql);
      const rows = sql.startsWith('EXPLAIN') ? [{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': planRows } }] }] : [{ n: exact }];
      return { rows: rows as T[], affectedRows: 0 };
    },
  };
  return { db, seen };
};

describe('countRows', () => {
  it('counts exactly below the limit', async () => {
    const { db, seen } = fakeDb(500, 487);
    expect(await countRows(db, 'shop t', new Sql())).toEqual({ total: 487, estimated: false });
    expect(seen).toHaveLength(2);
  });
  it('returns the planner estimate above the limit, without count(*)', async () => {
    const { db, seen } = fakeDb(EXACT_COUNT_LIMIT * 100, 0);
    expect(await countRows(db, 'shop_order t', new Sql())).toEqual({ total: EXACT_COUNT_LIMIT * 100, estimated: true });
    expect(seen).toHaveLength(1);
  });
});

describe('toPrefixQuery', () => {
  it('turns words into prefix terms and drops tsquery syntax', () => {
    expect(toPrefixQuery('Nova  Outdoor')).toBe('nova:* & outdoor:*');
    expect(toPrefixQuery("a'|b & !c")).toBe('ab:* & c:*');
    expect(toPrefixQuery(' ():* ')).toBeNull();
  });
});
