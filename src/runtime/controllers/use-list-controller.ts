/**
 * Headless list controller: paging (page / page_size, default 10), filters and sort synced
 * to a QueryPort (the URL query for page lists), selection, loading, refresh and total, and
 * the live refresh of `refreshWhile` (quiet reloads: no loading state, rows kept until the
 * reply is in, selection kept). Widgets only draw what it returns.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../contract/codes.js';
import { callApi } from '../api.js';
import type { RuntimeEnv } from '../env.js';
import { resolveMap } from '../expr/template.js';
import { decodeFilters, encodeFilters, filterFields, scalarFilters } from '../filters.js';
import type { QueryPort } from '../query.js';
import type { ListSchema, RuntimeUser } from '../types.js';
import { useRefreshWhile } from './use-refresh-while.js';

export type Row = Record<string, unknown>;
export type SortOrder = 'ascend' | 'descend';
export interface SortKey {
  field: string;
  order: SortOrder;
}
/** URL / API names of the second sort key (lists with the default sort names only) */
const THEN = { field: 'then_by', order: 'then_order' } as const;

/**
 * The sort keys after a table reports its sort states (antd's multiple mode reports every
 * sorted column; the one clicked last comes last): keys already there keep their place (the
 * first stays first), a new one joins as the second, replacing an older second. At most two.
 */
export function nextSortKeys(prev: readonly SortKey[], reported: ReadonlyArray<{ field?: string; order?: SortOrder | null }>): SortKey[] {
  const active = reported.filter((s): s is SortKey => !!s.field && (s.order === 'ascend' || s.order === 'descend'));
  const kept = prev.flatMap((p) => active.filter((a) => a.field === p.field));
  const added = active.filter((a) => !prev.some((p) => p.field === a.field));
  const next = [...kept, ...added];
  return next.length > 2 ? [next[0], next[next.length - 1]] : next;
}

export interface ListControllerOptions {
  env: RuntimeEnv;
  query: QueryPort;
  /** route params (or params handed to an embedded list) */
  params?: Record<string, unknown>;
  user?: RuntimeUser | null;
  /** a parent page reloads this list (a detail page's embedded list): `refreshWhile.watch` is not asked */
  parentRefreshes?: boolean;
}

export interface ListController {
  rows: Row[];
  total: number;
  /** the server estimated `total` (large tables, see docs/api.md) */
  totalEstimated: boolean;
  page: number;
  pageSize: number;
  paged: boolean;
  loading: boolean;
  error: unknown;
  filters: Record<string, unknown>;
  setFilters(values: Record<string, unknown>): void;
  resetFilters(): void;
  setPage(page: number, pageSize?: number): void;
  /** the first sort key (or none) */
  sorter: { field?: string; order?: SortOrder };
  /** every sort key, the first first (at most two; synced to the URL as sort_by / then_by) */
  sorters: SortKey[];
  setSorter(field: string | undefined, order: SortOrder | undefined): void;
  setSorters(keys: readonly SortKey[]): void;
  selectedKeys: Array<string | number>;
  selectedRows: Row[];
  setSelection(keys: Array<string | number>, rows: Row[]): void;
  refresh(): void;
  /** reloads without a loading state (rows stay until the reply is in); resolves when it is in */
  refreshQuietly(): Promise<void>;
  /** `refreshWhile` is reloading the list now */
  live: boolean;
  rowKey: string;
  /** antd virtual table for large pages */
  virtual: boolean;
  /** the scope actions and expressions of this list see */
  scope: Record<string, unknown>;
}

interface RequestState {
  rows: Row[];
  total: number;
  totalEstimated: boolean;
  loading: boolean;
  error: unknown;
  /** replies (or failures) so far */
  loads: number;
}

const INITIAL: RequestState = { rows: [], total: 0, totalEstimated: false, loading: true, error: null, loads: 0 };

const int = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

export function useListController(schema: ListSchema, opts: ListControllerOptions): ListController {
  const { env, query } = opts;
  const q = query.values;
  const paged = (schema.data.shape ?? 'page') === 'page' && schema.pagination !== false;
  const pagination = schema.pagination === false ? undefined : schema.pagination;
  const defaultSize = pagination?.pageSize ?? DEFAULT_PAGE_SIZE;
  const sortNames = schema.data.sortParams ?? { field: 'sort_by', order: 'sort_order' };
  const fields = useMemo(() => filterFields(schema.filters), [schema.filters]);

  const page = int(q.page, 1);
  const pageSize = int(q.page_size, defaultSize);
  const filtersKey = JSON.stringify(fields.map((f) => q[f.name] ?? null));
  const filters = useMemo(() => decodeFilters(fields, q), [fields, filtersKey]); // eslint-disable-line react-hooks/exhaustive-deps -- the query's filter values by value (filtersKey), not the query object's identity
  const sortField = q[sortNames.field] ?? schema.defaultSort?.field;
  const sortOrderRaw = q[sortNames.order] ?? schema.defaultSort?.order;
  const sortOrder = sortOrderRaw === 'ascend' || sortOrderRaw === 'descend' ? sortOrderRaw : undefined;
  const multiSort = !schema.data.sortParams;
  const thenField = multiSort && sortField && sortOrder ? q[THEN.field] : undefined;
  const thenOrder = thenField && (q[THEN.order] === 'ascend' || q[THEN.order] === 'descend') ? (q[THEN.order] as SortOrder) : undefined;

  // one state for what a request brings, so a reply is one update (one commit), and a request
  // started while the list already shows its loading state changes nothing
  const [result, setResult] = useState<RequestState>(INITIAL);
  const { rows, total, totalEstimated, loading, error, loads } = result;
  const [tick, setTick] = useState(0);
  // the next request is a quiet one (refreshWhile); who waits for the reply
  const quiet = useRef(false);
  const waiters = useRef<Array<() => void>>([]);
  const [selection, setSelectionState] = useState<{ keys: Array<string | number>; rows: Row[] }>({ keys: [], rows: [] });
  const { keys: selectedKeys, rows: selectedRows } = selection;
  const seq = useRef(0);

  const paramsKey = JSON.stringify(opts.params ?? {});
  const baseScope = useMemo(
    () => ({ filters, query: q, params: opts.params ?? {}, user: opts.user ?? null }),
    [filtersKey, paramsKey, opts.user], // eslint-disable-line react-hooks/exhaustive-deps -- filters and params by value (their keys), not by identity
  );

  /** The request for the current state (throws when a `data.params` expression fails). */
  const buildRequest = (): Record<string, unknown> => {
    const request: Record<string, unknown> = { ...scalarFilters(filters) };
    if (paged) Object.assign(request, { page, page_size: pageSize });
    // the API convention (docs/api.md): sort_by + sort_order asc | desc; the URL keeps antd's words
    if (sortField && sortOrder) Object.assign(request, { [sortNames.field]: sortField, [sortNames.order]: sortOrder === 'ascend' ? 'asc' : 'desc' });
    if (thenField && thenOrder && thenField !== sortField) Object.assign(request, { [THEN.field]: thenField, [THEN.order]: thenOrder === 'ascend' ? 'asc' : 'desc' });
    return Object.assign(request, resolveMap(schema.data.params, baseScope));
  };

  // The first page is requested while the list renders for the first time, not after its first
  // commit: the reply is on its way while the page shell renders (the effect below picks it up
  // when the request is still the same). Later requests (filters, paging, refresh) start there.
  const first = useRef<{ key: string; reply: Promise<unknown> } | null | undefined>(undefined);
  if (first.current === undefined) {
    try {
      const request = buildRequest();
      const reply = callApi<unknown>(env.http, schema.data.api, request);
      reply.catch(() => undefined); // handled by the effect; no unhandled-rejection report meanwhile
      first.current = { key: JSON.stringify([schema.data.api, request]), reply };
    } catch {
      first.current = null; // the effect reports the failing expression
    }
  }

  useEffect(() => {
    const id = ++seq.current;
    const isQuiet = quiet.current;
    quiet.current = false;
    const settled = () => {
      const w = waiters.current;
      waiters.current = [];
      for (const f of w) f();
    };
    const failed = (e: unknown) => {
      // a quiet reload that fails keeps what is shown (the next one tries again)
      setResult((r) => (isQuiet ? { ...r, loads: r.loads + 1 } : { ...r, loading: false, error: e, loads: r.loads + 1 }));
      settled();
    };
    let request: Record<string, unknown>;
    try {
      request = buildRequest();
    } catch (e) {
      first.current = null;
      failed(e);
      return;
    }
    const pending = first.current;
    first.current = null;
    const reply =
      pending && pending.key === JSON.stringify([schema.data.api, request]) ? pending.reply : callApi<unknown>(env.http, schema.data.api, request);
    if (!isQuiet) setResult((r) => (r.loading ? r : { ...r, loading: true }));
    reply.then(
      (data) => {
        if (id !== seq.current) return;
        if (Array.isArray(data)) {
          setResult((r) => ({ rows: data as Row[], total: data.length, totalEstimated: false, loading: false, error: null, loads: r.loads + 1 }));
        } else {
          const pageData = (data ?? {}) as { list?: Row[]; total?: number; total_estimated?: boolean };
          const list = pageData.list ?? [];
          const next = { rows: list, total: pageData.total ?? list.length, totalEstimated: pageData.total_estimated === true, loading: false, error: null };
          setResult((r) => ({ ...next, loads: r.loads + 1 }));
        }
        settled();
      },
      (e: unknown) => {
        if (id === seq.current) failed(e);
      },
    );
  }, [schema, page, pageSize, filtersKey, sortField, sortOrder, thenField, thenOrder, tick, paramsKey]); // eslint-disable-line react-hooks/exhaustive-deps -- reloads on these values only (filters and params by their keys)

  const setFilters = useCallback(
    (values: Record<string, unknown>) => query.set({ ...encodeFilters(fields, values), page: undefined }),
    [query, fields],
  );
  const resetFilters = useCallback(
    () => query.set({ ...Object.fromEntries(fields.map((f) => [f.name, undefined])), page: undefined }),
    [query, fields],
  );
  const setPage = useCallback(
    (p: number, size?: number) =>
      query.set({
        page: p > 1 ? String(p) : undefined,
        page_size: size && size !== defaultSize ? String(size) : size === defaultSize ? undefined : q.page_size,
      }),
    [query, defaultSize, q.page_size],
  );
  const setSorters = useCallback(
    (keys: readonly SortKey[]) => {
      const [first, then] = keys;
      query.set({
        [sortNames.field]: first?.field,
        [sortNames.order]: first?.order,
        ...(multiSort ? { [THEN.field]: then?.field, [THEN.order]: then?.order } : {}),
        page: undefined,
      });
    },
    [query, sortNames.field, sortNames.order, multiSort],
  );
  const setSorter = useCallback(
    (field: string | undefined, order: SortOrder | undefined) => setSorters(field && order ? [{ field, order }] : []),
    [setSorters],
  );
  const sorters = useMemo(() => {
    const keys: SortKey[] = sortField && sortOrder ? [{ field: sortField, order: sortOrder }] : [];
    if (keys.length && thenField && thenOrder && thenField !== sortField) keys.push({ field: thenField, order: thenOrder });
    return keys;
  }, [sortField, sortOrder, thenField, thenOrder]);
  const setSelection = useCallback((keys: Array<string | number>, sel: Row[]) => setSelectionState({ keys, rows: sel }), []);
  const scope = useMemo(() => ({ ...baseScope, selection: selectedRows, selectedKeys }), [baseScope, selectedRows, selectedKeys]);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  const refreshQuietly = useCallback(
    () =>
      new Promise<void>((resolve) => {
        waiters.current.push(resolve);
        quiet.current = true;
        setTick((t) => t + 1);
      }),
    [],
  );
  const rowKey = schema.data.rowKey ?? 'id';

  // selected rows follow a reload: the same keys, the fresh row objects; rows that are gone (a
  // batch delete, another page) drop out of the selection, so a batch action never names them
  useEffect(() => {
    setSelectionState((sel) => {
      if (!sel.keys.length) return sel;
      const fresh = new Map(rows.map((r) => [r[rowKey] as string | number, r]));
      const keys = sel.keys.filter((k) => fresh.has(k));
      const next = keys.map((k) => fresh.get(k)!);
      return keys.length !== sel.keys.length || next.some((r, i) => r !== sel.rows[i]) ? { keys, rows: next } : sel;
    });
  }, [rows, rowKey]);

  const live = useRefreshWhile(schema.refreshWhile, {
    env,
    data: rows,
    loads,
    scope: baseScope,
    reload: refreshQuietly,
    watch: !opts.parentRefreshes,
  });

  return {
    rows,
    total,
    totalEstimated,
    page,
    pageSize,
    paged,
    loading,
    error,
    filters,
    setFilters,
    resetFilters,
    setPage,
    sorter: { field: sortOrder ? sortField : undefined, order: sortOrder },
    sorters,
    setSorter,
    setSorters,
    selectedKeys,
    selectedRows,
    setSelection,
    refresh,
    refreshQuietly,
    live,
    rowKey,
    virtual: pageSize >= (pagination?.virtualThreshold ?? 100),
    scope,
  };
}
