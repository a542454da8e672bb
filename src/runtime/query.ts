/**
 * Where a list keeps its paging / filter / sort state: the URL query (shareable links, back
 * button) for the page's main list, or memory for embedded lists.
 */
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

export type QueryValues = Readonly<Record<string, string>>;

export interface QueryPort {
  values: QueryValues;
  /** replaces the keys given (undefined / '' removes one); other keys stay */
  set(next: Record<string, string | undefined>, opts?: { replace?: boolean }): void;
}

function merge(base: QueryValues, next: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = { ...base };
  for (const [k, v] of Object.entries(next)) {
    if (v === undefined || v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}

export function useUrlQuery(): QueryPort {
  const [search, setSearch] = useSearchParams();
  const values = useMemo(() => Object.fromEntries(search.entries()), [search]);
  const set = useCallback(
    (next: Record<string, string | undefined>, opts?: { replace?: boolean }) =>
      setSearch((prev) => merge(Object.fromEntries(prev.entries()), next), { replace: opts?.replace }),
    [setSearch],
  );
  return useMemo(() => ({ values, set }), [values, set]);
}

export function useMemoryQuery(initial: QueryValues = {}): QueryPort {
  const [values, setValues] = useState<QueryValues>(initial);
  const set = useCallback((next: Record<string, string | undefined>) => setValues((prev) => merge(prev, next)), []);
  return useMemo(() => ({ values, set }), [values, set]);
}
