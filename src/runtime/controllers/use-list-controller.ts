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

  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [totalEstimated, setTotalEstimated] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const [selectedKeys, setSelectedKeys] = useState<Array<string | number>>([]);
  const [selectedRows, setSelectedRows] = useState<Row[]>([]);
  const seq = useRef(0);

  const paramsKey = JSON.stringify(opts.params ?? {});
  const baseScope = useMemo(
    () => ({ filters, query: q, params: opts.params ?? {}, user: opts.user ?? null }),
    [filtersKey, paramsKey, opts.user], // eslint-disable-line react-hooks/exhaustive-deps
  );

  useEffect(() => {
    const id = ++seq.current;
    const request: Record<string, unknown> = { ...scalarFilters(filters) };
    if (paged) Object.assign(request, { page, page_size: pageSize });
    // the API convention (docs/api.md): sort_by + sort_order asc | desc; the URL keeps antd's words
    if (sortField && sortOrder) Object.assign(request, { [sortNames.field]: sortField, [sortNames.order]: sortOrder === 'ascend' ? 'asc' : 'desc' });
    let mapped: Record<string, unknown>;
    try {
      mapped = resolveMap(schema.data.params, baseScope);
    } catch (e) {
      setError(e);
      setLoading(false);
      return;
    }
    Object.assign(request, mapped);
    setLoading(true);
    callApi<unknown>(env.http, schema.data.api, request)
      .then((data) => {
        if (id !== seq.current) return;
        if (Array.isArray(data)) {
          setRows(data as Row[]);
          setTotal(data.length);
          setTotalEstimated(false);
        } else {
          const pageData = (data ?? {}) as { list?: Row[]; total?: number; total_estimated?: boolean };
          setRows(pageData.list ?? []);
          setTotal(pageData.total ?? pageData.list?.length ?? 0);
          setTotalEstimated(pageData.total_estimated === true);
        }
        setError(null);
      })
      .catch((e: unknown) => {
        if (id === seq.current) setError(e);
      })
      .finally(() => {
        if (id === seq.current) setLoading(false);
      });
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
  const setSelection = useCallback((keys: Array<string | number>, sel: Row[]) => {
    setSelectedKeys(keys);
    setSelectedRows(sel);
  }, []);
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
    scope: { ...baseScope, selection: selectedRows, selectedKeys },
  };
}
