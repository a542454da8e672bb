import { describe, expect, it } from 'vitest';
import type { Db, QueryResult } from './db.js';
import { isWrite, tablesIn, trackerOf, trackWrites, WriteTracker } from './tracked.js';

describe('isWrite / tablesIn', () => {
  it('tells reads from writes', () => {
    expect(isWrite('SELECT * FROM shop')).toBe(false);
    expect(isWrite('  explain (format json) SELECT 1')).toBe(false);
    expect(isWrite('INSERT INTO shop (name) VALUES ($1)')).toBe(true);
    expect(isWrite('UPDATE sessions SET revoked_at = now()')).toBe(true);
    expect(isWrite('WITH x AS (SELECT 1) SELECT * FROM x')).toBe(false);
    expect(isWrite('WITH d AS (DELETE FROM shop RETURNING id) SELECT count(*) FROM d')).toBe(true);
  });
  it('names every table a statement touches', () => {
    expect(tablesIn('INSERT INTO account_roles (account_id) SELECT id FROM accounts')).toEqual(['account_roles', 'accounts']);
    expect(tablesIn('UPDATE "roles" r SET x = 1 FROM public.role_permissions rp')).toEqual(['roles', 'role_permissions']);
    expect(tablesIn('DELETE FROM shop_order WHERE id = $1')).toEqual(['shop_order']);
  });
});

describe('WriteTracker.memo', () => {
  it('reuses a value until a table it reads is written', async () => {
    const t = new WriteTracker();
    let n = 0;
    const read = () => t.memo('k', ['shop'], 60_000, async () => ++n);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    t.bump(['shop_order']);
    expect(await read()).toBe(1);
    t.bump(['shop']);
    expect(await read()).toBe(2);
  });
  it('expires after its ttl and shares one computation between concurrent callers', async () => {
    const t = new WriteTracker();
    let n = 0;
    const [a, b] = await Promise.all([t.memo('k', [], 0, async () => ++n), t.memo('k', [], 50, async () => ++n)]);
    expect([a, b]).toEqual([1, 1]);
    expect(await t.memo('k', [], 0, async () => ++n)).toBe(2);
  });
  it('keeps neither rejections nor refused values', async () => {
    const t = new WriteTracker();
    await expect(t.memo('k', [], 60_000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await t.memo('k', [], 60_000, async () => 1)).toBe(1);
    expect(await t.memo('n', [], 60_000, async () => null, (v) => v !== null)).toBeNull();
    await Promise.resolve();
    expect(await t.memo('n', [], 60_000, async () => 'x')).toBe('x');
  });
  it('a write overlapping a read leaves the read stale', async () => {
    const t = new WriteTracker();
    let release!: () => void;
    const slow = t.memo('k', ['shop'], 60_000, () => new Promise<string>((r) => (release = () => r('old'))));
    t.bump(['shop']);
    release();
    expect(await slow).toBe('old');
    expect(await t.memo('k', ['shop'], 60_000, async () => 'new')).toBe('new');
  });
});

describe('trackWrites', () => {
  const fakeDb = (): Db & { log: string[] } => {
    const log: string[] = [];
    const q = async <T,>(sql: string): Promise<QueryResult<T>> => {
      log.push(sql);
      return { rows: [], affectedRows: 0 };
    };
    return {
      log,
      kind: 'pglite',
      query: q,
      exec: async (sql) => void log.push(sql),
      tx: async (fn) => fn({ query: q }),
      close: async () => undefined,
    };
  };

  it('bumps the tables of writes made directly and inside transactions', async () => {
    const db = trackWrites(fakeDb());
    const t = trackerOf(db)!;
    expect(trackWrites(db)).toBe(db);
    const before = t.stamp(['shop']);
    await db.query('SELECT * FROM shop');
    expect(t.stamp(['shop'])).toBe(before);
    await db.query('UPDATE shop SET name = $1', ['x']);
    const afterUpdate = t.stamp(['shop']);
    expect(afterUpdate).not.toBe(before);
    let inside = '';
    await db.tx(async (q) => {
      expect(trackerOf(q)).toBe(t);
      await q.query('INSERT INTO shop (name) VALUES ($1)', ['y']);
      inside = t.stamp(['shop']);
    });
    // bumped again once the transaction ended
    expect(t.stamp(['shop'])).not.toBe(inside);
    expect(t.stamp(['sessions'])).toBe(t.stamp(['sessions']));
  });

  it('a transaction that throws still leaves its tables bumped', async () => {
    const db = trackWrites(fakeDb());
    const t = trackerOf(db)!;
    let inside = '';
    await expect(
      db.tx(async (q) => {
        await q.query('DELETE FROM sessions WHERE id = 1');
        inside = t.stamp(['sessions']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(t.stamp(['sessions'])).not.toBe(inside);
  });
});
