/**
 * Headless list controller, composed of small hooks: params ↔ URL (use-list-params), the rows
 * through the query client (use-list-query), the selection (use-record-selection), what actions
 * need (use-list-actions: refresh, the landing after a delete), and the live refresh of
 * `refreshWhile` (quiet reloads: no loading state, rows kept until the reply is in, selection
 * kept). Widgets only draw what it returns.
 */
import { useMemo } from 'react';
import type { RuntimeEnv } from '../env.js';
import type { QueryPort } from '../query.js';
import type { ListSchema, RuntimeUser } from '../types.js';
import type { SortKey, SortOrder } from './sort-keys.js';
import { useListActions } from './use-list-actions.js';
import { useListParams } from './use-list-params.js';
import { useListQuery } from './use-list-query.js';
import { useRecordSelection, type Row } from './use-record-selection.js';
import { useRefreshWhile } from './use-refresh-while.js';

export { nextSortKeys, type SortKey, type SortOrder } from './sort-keys.js';
export type { Row } from './use-record-selection.js';

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
  /** the list's query without paging and sorting: what "select all N matching" hands a batch API as `filter` */
  matchFilter: Record<string, unknown>;
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

export function useListController(schema: ListSchema, opts: ListControllerOptions): ListController {
  const { env } = opts;
  const p = useListParams(schema, opts.query, opts.params, opts.user);
  const list = useListQuery(schema, env, p.request, p.requestError);
  const rowKey = schema.data.rowKey ?? 'id';
  const selection = useRecordSelection(list.rows, rowKey);
  const { refresh } = useListActions({ ...list, page: p.page, pageSize: p.pageSize, paged: p.paged, setPage: p.setPage });
  const live = useRefreshWhile(schema.refreshWhile, {
    env,
    data: list.rows,
    loads: list.loads,
    scope: p.scope,
    reload: list.refreshQuietly,
    watch: !opts.parentRefreshes,
  });
  const { selectedRows, selectedKeys } = selection;
  const scope = useMemo(() => ({ ...p.scope, selection: selectedRows, selectedKeys }), [p.scope, selectedRows, selectedKeys]);
  const { setSorters } = p;
  const [first] = p.sorters;
  const pagination = schema.pagination === false ? undefined : schema.pagination;

  return {
    rows: list.rows,
    total: list.total,
    totalEstimated: list.totalEstimated,
    page: p.page,
    pageSize: p.pageSize,
    paged: p.paged,
    loading: list.loading,
    error: list.error,
    filters: p.filters,
    setFilters: p.setFilters,
    resetFilters: p.resetFilters,
    setPage: p.setPage,
    sorter: { field: first?.field, order: first?.order },
    sorters: p.sorters,
    setSorter: (field, order) => setSorters(field && order ? [{ field, order }] : []),
    setSorters,
    ...selection,
    matchFilter: matchFilterOf(p.request),
    refresh,
    refreshQuietly: list.refreshQuietly,
    live,
    rowKey,
    virtual: p.pageSize >= (pagination?.virtualThreshold ?? 100),
    scope,
  };
}

const NOT_FILTERS = new Set(['page', 'page_size', 'sort_by', 'sort_order', 'then_by', 'then_order']);

/** A list request as a filter: no paging or sorting, no empty values. */
export function matchFilterOf(request: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(request)) if (!NOT_FILTERS.has(k) && v !== undefined && v !== null && v !== '') out[k] = v;
  return out;
}
