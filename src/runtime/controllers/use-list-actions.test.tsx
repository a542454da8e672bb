import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emptyPageTarget, useListActions, type ListActionsInput } from './use-list-actions.js';

const page = (n: number, rows: number, total: number, extra: Partial<ListActionsInput> = {}): ListActionsInput => ({
  page: n,
  pageSize: 10,
  rows: Array.from({ length: rows }, (_, i) => ({ id: i })),
  total,
  totalEstimated: false,
  paged: true,
  settled: true,
  error: null,
  setPage: vi.fn(),
  refresh: vi.fn(async () => undefined),
  ...extra,
});

describe('useListActions', () => {
  it('emptyPageTarget: an empty page after the first goes to the last page with rows', () => {
    expect(emptyPageTarget(page(3, 0, 20))).toBe(2); // the last row of page 3 deleted
    expect(emptyPageTarget(page(3, 0, 5))).toBe(1); // a batch delete of more than a page
    expect(emptyPageTarget(page(3, 0, 0))).toBe(1); // everything deleted
    expect(emptyPageTarget(page(5, 0, 1000, { totalEstimated: true }))).toBe(4);
    expect(emptyPageTarget(page(1, 0, 0))).toBeNull();
    expect(emptyPageTarget(page(3, 1, 21))).toBeNull();
  });

  it('moves to that page (replacing the history entry) once the reply is in, not while it loads', async () => {
    const loading = page(3, 0, 20, { settled: false });
    const { rerender } = renderHook((p: ListActionsInput) => useListActions(p), { initialProps: loading });
    expect(loading.setPage).not.toHaveBeenCalled();
    const settled = { ...loading, settled: true };
    rerender(settled);
    await waitFor(() => expect(loading.setPage).toHaveBeenCalledWith(2, undefined, { replace: true }));
  });

  it('leaves an unpaged list, a failed reply and a page with rows alone; refresh reloads', () => {
    for (const p of [page(3, 0, 20, { paged: false }), page(3, 0, 20, { error: new Error('x') }), page(2, 3, 13)]) {
      const { result } = renderHook(() => useListActions(p));
      result.current.refresh();
      expect(p.setPage).not.toHaveBeenCalled();
      expect(p.refresh).toHaveBeenCalledTimes(1);
    }
  });
});
