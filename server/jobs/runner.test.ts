import { describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { databaseUnavailable } from '../db/unavailable.js';
import { persist } from './runner.js';

const quiet = { info() {}, warn() {} };
const gone = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

/** a Db whose `SELECT 1` answers or fails as `up()` says */
const fakeDb = (up: () => boolean): Db =>
  ({
    kind: 'postgres',
    async query() {
      if (!up()) throw new Error('Connection terminated unexpectedly');
      return { rows: [], affectedRows: 0 };
    },
  }) as unknown as Db;

describe('databaseUnavailable', () => {
  it('knows a database that went away from every other error', () => {
    expect(databaseUnavailable(gone)).toBe(true);
    expect(databaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(databaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(databaseUnavailable(new Error('planned failure 1'))).toBe(false);
    expect(databaseUnavailable(null)).toBe(false);
    expect(databaseUnavailable('Connection terminated')).toBe(false);
    // wrapped by a job without a cause, or inside an AggregateError (Promise.any, pools)
    expect(databaseUnavailable(new Error('indexing document 7 failed: Connection terminated unexpectedly'))).toBe(true);
    expect(databaseUnavailable(new AggregateError([new Error('x'), Object.assign(new Error('gone'), { code: '57P01' })]))).toBe(true);
    expect(databaseUnavailable(new AggregateError([new Error('x')]))).toBe(false);
    // a customer's text that merely mentions the words, mid-sentence, is not a driver error
    expect(databaseUnavailable(new Error('reply says Connection terminated by the shop'))).toBe(false);
  });
});

describe('persist', () => {
  it('writes again while the database is away, until the write goes through', async () => {
    let tries = 0;
    const out = await persist(
      async () => {
        if (++tries < 3) throw gone;
        return 'written';
      },
      { db: fakeDb(() => true), stop: new AbortController().signal, log: quiet, what: 'test' },
    );
    expect(out).toBe('written');
    expect(tries).toBe(3);
  });

  it('also writes again after any error while the database does not answer', async () => {
    let tries = 0;
    let up = false;
    const out = await persist(
      async () => {
        tries++;
        if (tries === 2) up = true;
        if (tries < 2) throw new Error('some driver error');
        return tries;
      },
      { db: fakeDb(() => up), stop: new AbortController().signal, log: quiet, what: 'test' },
    );
    expect(out).toBe(2);
  });

  it('gives up at once on an error of the write itself while the database answers', async () => {
    let tries = 0;
    const bad = Object.assign(new Error('value too long'), { code: '22001' });
    await expect(
      persist(
        async () => {
          tries++;
          throw bad;
        },
        { db: fakeDb(() => true), stop: new AbortController().signal, log: quiet, what: 'test' },
      ),
    ).rejects.toBe(bad);
    expect(tries).toBe(1);
  });

  it('gives up when the process stops (recovery takes over)', async () => {
    const stop = new AbortController();
    let tries = 0;
    const p = persist(
      async () => {
        if (++tries === 2) stop.abort();
        throw gone;
      },
      { db: fakeDb(() => false), stop: stop.signal, log: quiet, what: 'test' },
    );
    await expect(p).rejects.toBe(gone);
    expect(tries).toBe(2);
  });
});
