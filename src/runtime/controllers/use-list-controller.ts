/**
 * Headless list controller: paging (page / page_size, default 10), filters and sort synced
 * to a QueryPort (the URL query for page lists), selection, loading, refresh and total.
 * Widgets only draw what it returns.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../contract/codes.js';
import { callApi } from '../api.js';
import type { RuntimeEnv } from '../env.js';
import { resolveMap } from '../expr/template.js';
import { decodeFilters, encodeFilters, filterFields, scalarFilters } from '../filters.js';
import type { QueryPort } from '../query.js';
import type { ListSchema, RuntimeUser } from '../types.js';

export type Row = Record<string, unknown>;
export type SortOrder = 'ascend' | 'descend';

export interface ListControllerOptions {
  env: RuntimeEnv;
  query: QueryPort;
  /** route params (or params handed to an embedded list) */
  params?: Record<string, unknown>;
  user?: RuntimeUser | null;
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
  sorter: { field?: string; order?: SortOrder };
  setSorter(field: string | undefined, order: SortOrder | undefined): void;
  selectedKeys: Array<string | number>;
  selectedRows: Row[];
  setSelection(keys: Array<string | number>, rows: Row[]): void;
  refresh(): void;
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
}

const INITIAL: RequestState = { rows: [], total: 0, totalEstimated: false, loading: true, error: null };

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
  const filters = useMemo(() => decodeFilters(fields, q), [fields, filtersKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const sortField = q[sortNames.field] ?? schema.defaultSort?.field;
  const sortOrderRaw = q[sortNames.order] ?? schema.defaultSort?.order;
  const sortOrder = sortOrderRaw === 'ascend' || sortOrderRaw === 'descend' ? sortOrderRaw : undefined;

  // one state for what a request brings, so a reply is one update (one commit), and a request
  // started while the list already shows its loading state changes nothing
  const [result, setResult] = useState<RequestState>(INITIAL);
  const { rows, total, totalEstimated, loading, error } = result;
  const [tick, setTick] = useState(0);
  const [selection, setSelectionState] = useState<{ keys: Array<string | number>; rows: Row[] }>({ keys: [], rows: [] });
  const { keys: selectedKeys, rows: selectedRows } = selection;
  const seq = useRef(0);

  const paramsKey = JSON.stringify(opts.params ?? {});
  const baseScope = useMemo(
    () => ({ filters, query: q, params: opts.params ?? {}, user: opts.user ?? null }),
    [filtersKey, paramsKey, opts.user], // eslint-disable-line react-hooks/exhaustive-deps
  );

  /** The request for the current state (throws when a `data.params` expression fails). */
  const buildRequest = (): Record<string, unknown> => {
    const request: Record<string, unknown> = { ...scalarFilters(filters) };
    if (paged) Object.assign(request, { page, page_size: pageSize });
    // the API convention (docs/api.md): sort_by + sort_order asc | desc; the URL keeps antd's words
    if (sortField && sortOrder) Object.assign(request, { [sortNames.field]: sortField, [sortNames.order]: sortOrder === 'ascend' ? 'asc' : 'desc' });
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
    const failed = (e: unknown) => setResult((r) => ({ ...r, loading: false, error: e }));
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
    setResult((r) => (r.loading ? r : { ...r, loading: true }));
    reply.then(
      (data) => {
        if (id !== seq.current) return;
        if (Array.isArray(data)) {
          setResult({ rows: data as Row[], total: data.length, totalEstimated: false, loading: false, error: null });
        } else {
          const pageData = (data ?? {}) as { list?: Row[]; total?: number; total_estimated?: boolean };
          const list = pageData.list ?? [];
          setResult({ rows: list, total: pageData.total ?? list.length, totalEstimated: pageData.total_estimated === true, loading: false, error: null });
        }
      },
      (e: unknown) => {
        if (id === seq.current) failed(e);
      },
    );
  }, [schema, page, pageSize, filtersKey, sortField, sortOrder, tick, paramsKey]); // eslint-disable-line react-hooks/exhaustive-deps

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
  const setSorter = useCallback(
    (field: string | undefined, order: SortOrder | undefined) =>
      query.set({ [sortNames.field]: order ? field : undefined, [sortNames.order]: order, page: undefined }),
    [query, sortNames.field, sortNames.order],
  );
  const setSelection = useCallback((keys: Array<string | number>, sel: Row[]) => setSelectionState({ keys, rows: sel }), []);
  const scope = useMemo(() => ({ ...baseScope, selection: selectedRows, selectedKeys }), [baseScope, selectedRows, selectedKeys]);
  const refresh = useCallback(() => setTick((t) => t + 1), []);

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
    setSorter,
    selectedKeys,
    selectedRows,
    setSelection,
    refresh,
    rowKey: schema.data.rowKey ?? 'id',
    virtual: pageSize >= (pagination?.virtualThreshold ?? 100),
    scope,
  };
}
