/**
 * A list's state ↔ its QueryPort (the URL query for page lists, memory for embedded ones):
 * page / page_size (default 10), filters typed by the filter schema, one or two sort keys; and
 * the request they make together with the schema's `data.params` mapping.
 */
import { useCallback, useMemo } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../contract/codes.js';
import { resolveMap } from '../expr/template.js';
import { decodeFilters, encodeFilters, filterFields, scalarFilters } from '../filters.js';
import type { QueryPort } from '../query.js';
import type { ListSchema, RuntimeUser } from '../types.js';
import { apiOrder, isOrder, THEN, type SortKey, type SortOrder } from './sort-keys.js';
import { useStable } from './use-stable.js';

export interface ListParams {
  page: number;
  pageSize: number;
  paged: boolean;
  filters: Record<string, unknown>;
  setFilters(values: Record<string, unknown>): void;
  resetFilters(): void;
  /** `replace`: no new history entry (a correction, not a step the person took) */
  setPage(page: number, pageSize?: number, opts?: { replace?: boolean }): void;
  /** every sort key, the first first (at most two) */
  sorters: SortKey[];
  setSorters(keys: readonly SortKey[]): void;
  /** filters, query, params and user: what `data.params` and actions see */
  scope: Record<string, unknown>;
  /** the parameters of the request (or why the `data.params` mapping failed) */
  request: Record<string, unknown>;
  requestError: unknown;
}

const int = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

export function useListParams(schema: ListSchema, query: QueryPort, routeParams: Record<string, unknown> | undefined, user?: RuntimeUser | null): ListParams {
  const q = query.values;
  const paged = (schema.data.shape ?? 'page') === 'page' && schema.pagination !== false;
  const defaultSize = (schema.pagination === false ? undefined : schema.pagination?.pageSize) ?? DEFAULT_PAGE_SIZE;
  const sortNames = schema.data.sortParams ?? { field: 'sort_by', order: 'sort_order' };
  const multiSort = !schema.data.sortParams;
  const fields = useMemo(() => filterFields(schema.filters), [schema.filters]);

  const page = int(q.page, 1);
  const pageSize = int(q.page_size, defaultSize);
  const filters = useStable(decodeFilters(fields, q));
  const params = useStable(routeParams ?? {});
  const sortField = q[sortNames.field] ?? schema.defaultSort?.field;
  const rawOrder = q[sortNames.order] ?? schema.defaultSort?.order;
  const sortOrder = isOrder(rawOrder) ? rawOrder : undefined;
  const thenField = multiSort && sortField && sortOrder ? q[THEN.field] : undefined;
  const thenOrder = thenField && isOrder(q[THEN.order]) ? (q[THEN.order] as SortOrder) : undefined;

  const sorters = useMemo(() => {
    const keys: SortKey[] = sortField && sortOrder ? [{ field: sortField, order: sortOrder }] : [];
    if (keys.length && thenField && thenOrder && thenField !== sortField) keys.push({ field: thenField, order: thenOrder });
    return keys;
  }, [sortField, sortOrder, thenField, thenOrder]);
  const scope = useMemo(() => ({ filters, query: q, params, user: user ?? null }), [filters, q, params, user]);

  let request: Record<string, unknown> = {};
  let requestError: unknown = null;
  try {
    request = { ...scalarFilters(filters) };
    if (paged) Object.assign(request, { page, page_size: pageSize });
    const [first, then] = sorters;
    if (first) Object.assign(request, { [sortNames.field]: first.field, [sortNames.order]: apiOrder(first.order) });
    if (then) Object.assign(request, { [THEN.field]: then.field, [THEN.order]: apiOrder(then.order) });
    Object.assign(request, resolveMap(schema.data.params, scope));
  } catch (e) {
    requestError = e;
  }

  const setFilters = useCallback((values: Record<string, unknown>) => query.set({ ...encodeFilters(fields, values), page: undefined }), [query, fields]);
  const resetFilters = useCallback(() => query.set({ ...Object.fromEntries(fields.map((f) => [f.name, undefined])), page: undefined }), [query, fields]);
  const currentSize = q.page_size;
  const setPage = useCallback(
    (p: number, size?: number, opts?: { replace?: boolean }) =>
      query.set(
        { page: p > 1 ? String(p) : undefined, page_size: size && size !== defaultSize ? String(size) : size === defaultSize ? undefined : currentSize },
        opts,
      ),
    [query, defaultSize, currentSize],
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

  return { page, pageSize, paged, filters, setFilters, resetFilters, setPage, sorters, setSorters, scope, request, requestError };
}
