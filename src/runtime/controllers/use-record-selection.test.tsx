import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { followRows, useRecordSelection, type Row } from './use-record-selection.js';

describe('useRecordSelection', () => {
  it('keeps the selected keys across a reload with the fresh rows, and drops rows that are gone', () => {
    const a = { id: 1, v: 'a' };
    const b = { id: 2, v: 'b' };
    const { result, rerender } = renderHook(({ rows }) => useRecordSelection(rows, 'id'), { initialProps: { rows: [a, b] as Row[] } });
    act(() => result.current.setSelection([1, 2], [a, b]));
    expect(result.current.selectedKeys).toEqual([1, 2]);
    // a reload: row 1 fresh, row 2 deleted
    const a2 = { id: 1, v: 'a2' };
    rerender({ rows: [a2] });
    expect(result.current.selectedKeys).toEqual([1]);
    expect(result.current.selectedRows[0]).toBe(a2);
  });

  it('followRows returns the same selection when nothing changed (no new render)', () => {
    const rows = [{ id: 1 }, { id: 2 }];
    const sel = { keys: [2], rows: [rows[1]] };
    expect(followRows(sel, rows, 'id')).toBe(sel);
    expect(followRows({ keys: [], rows: [] }, rows, 'id').keys).toEqual([]);
    expect(followRows(sel, [{ id: 1 }], 'id')).toEqual({ keys: [], rows: [] });
  });
});
