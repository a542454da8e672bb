import { describe, expect, it } from 'vitest';
import { batchReport, importReport } from './actions.js';

describe('importReport', () => {
  it('reads the order / session import reply: counts and one line per row with its reasons', () => {
    const r = importReport({
      file: 'o.csv',
      total: 2,
      created: 1,
      updated: 0,
      unchanged: 0,
      rejected: 1,
      rows: [
        { row: 2, external_id: 'a', status: 'created', id: 5 },
        { row: 3, external_id: 'b', status: 'rejected', id: null, errors: [{ field: 'email', message: 'must match format "email"' }] },
      ],
    });
    expect(r).toEqual({
      file: 'o.csv',
      total: 2,
      counts: { created: 1, updated: 0, unchanged: 0, rejected: 1 },
      rows: [
        { row: 2, ref: 'a', status: 'created', reasons: [] },
        { row: 3, ref: 'b', status: 'rejected', reasons: ['email: must match format "email"'] },
      ],
    });
  });

  it('reads the Douyin product import reply (skipped / failed rows), in row order', () => {
    const r = importReport({
      file: 'p.csv',
      total: 3,
      imported: 1,
      skipped: 1,
      failed: 1,
      skipped_rows: [{ row: 4, product_id: 'p2', reason: 'already exists' }],
      failed_rows: [{ row: 3, product_id: 'p1', reason: 'title is empty' }],
    });
    expect(r?.counts).toEqual({ created: 1, skipped: 1, failed: 1 });
    expect(r?.rows.map((x) => [x.row, x.status, x.ref])).toEqual([[3, 'failed', 'p1'], [4, 'skipped', 'p2']]);
  });

  it('is null for any other reply', () => {
    expect(importReport(null)).toBeNull();
    expect(importReport({ id: 1 })).toBeNull();
    expect(importReport([1])).toBeNull();
  });
});

describe('batchReport', () => {
  it('reads a batch reply per row, the refused rows first', () => {
    const r = batchReport({
      action: 'stop',
      total: 3,
      done: 2,
      refused: 1,
      results: [
        { id: 1, ok: true },
        { id: 2, ok: false, code: 40009, msg: 'cannot stop a finished task' },
        { id: 3, ok: true },
      ],
    });
    expect(r).toMatchObject({ batch: true, total: 3, counts: { done: 2, refused: 1 } });
    expect(r!.rows.map((x) => [x.row, x.status, x.reasons])).toEqual([
      [2, 'refused', ['cannot stop a finished task']],
      [1, 'done', []],
      [3, 'done', []],
    ]);
    expect(batchReport({ ids: [1] })).toBeNull();
  });
});
