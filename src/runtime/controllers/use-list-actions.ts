/**
 * What a list does for its actions: `refresh` after a request, form or upload (it joins the
 * reload the write already started, src/runtime/data-layer/client.ts), and the landing after a delete
 * — a page that comes back empty while earlier pages have rows (the last rows of the last page
 * were deleted, one by one or in a batch) is replaced by the last page that has rows.
 */
import { useCallback, useEffect } from 'react';
import type { ListPage } from './use-list-query.js';

export interface PagePosition extends ListPage {
  page: number;
  pageSize: number;
}

/** The page to show instead of an empty one, or null when the page shown is right. */
export function emptyPageTarget(p: PagePosition): number | null {
  if (p.page <= 1 || p.rows.length > 0) return null;
  // an estimated total cannot name the last page: one step back (again, if that one is empty too)
  if (p.totalEstimated) return p.page - 1;
  return Math.max(1, Math.min(p.page - 1, Math.ceil(p.total / p.pageSize)));
}

export interface ListActionsInput extends PagePosition {
  paged: boolean;
  /** the rows shown are the current request's reply and nothing is loading */
  settled: boolean;
  error: unknown;
  setPage(page: number, pageSize?: number, opts?: { replace?: boolean }): void;
  refresh(): Promise<void>;
}

export function useListActions(list: ListActionsInput): { refresh(): void } {
  const { paged, settled, error, setPage, refresh: reload } = list;
  const target = paged && settled && !error ? emptyPageTarget(list) : null;
  useEffect(() => {
    // replace: back does not return to the emptied page
    if (target !== null) setPage(target, undefined, { replace: true });
  }, [target, setPage]);
  const refresh = useCallback(() => void reload().catch(() => undefined), [reload]);
  return { refresh };
}
