/** Sort keys of a list: antd's words in the URL, the API convention (docs/api.md) in the request. */
export type SortOrder = 'ascend' | 'descend';
export interface SortKey {
  field: string;
  order: SortOrder;
}

/** URL / API names of the second sort key (lists with the default sort names only) */
export const THEN = { field: 'then_by', order: 'then_order' } as const;

export const isOrder = (v: unknown): v is SortOrder => v === 'ascend' || v === 'descend';

/** sort_order's words: asc | desc */
export const apiOrder = (order: SortOrder) => (order === 'ascend' ? 'asc' : 'desc');

/**
 * The sort keys after a table reports its sort states (antd's multiple mode reports every
 * sorted column; the one clicked last comes last): keys already there keep their place (the
 * first stays first), a new one joins as the second, replacing an older second. At most two.
 */
export function nextSortKeys(prev: readonly SortKey[], reported: ReadonlyArray<{ field?: string; order?: SortOrder | null }>): SortKey[] {
  const active = reported.filter((s): s is SortKey => !!s.field && isOrder(s.order));
  const kept = prev.flatMap((p) => active.filter((a) => a.field === p.field));
  const added = active.filter((a) => !prev.some((p) => p.field === a.field));
  const next = [...kept, ...added];
  return next.length > 2 ? [next[0], next[next.length - 1]] : next;
}
