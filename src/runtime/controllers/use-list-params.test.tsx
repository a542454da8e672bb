import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useMemoryQuery } from '../query.js';
import type { ListSchema } from '../types.js';
import { useListParams } from './use-list-params.js';

const schema = {
  id: 'demo.list',
  kind: 'list',
  data: { api: 'GET thing/list', params: { scope: '{{ params.shop }}', from: '{{ filters.time ? filters.time[0] : undefined }}' } },
  filters: { type: 'object', properties: { name: { type: 'string' }, status: { type: 'number' }, time: { type: 'array' } } },
  pagination: { pageSize: 20 },
  defaultSort: { field: 'id', order: 'descend' },
  columns: [],
} as unknown as ListSchema;

function setup(initial: Record<string, string> = {}, routeParams: Record<string, unknown> = { shop: 5 }) {
  return renderHook(
    ({ params }) => {
      const query = useMemoryQuery(initial);
      return { query, p: useListParams(schema, query, params) };
    },
    { initialProps: { params: routeParams } },
  );
}

describe('useListParams', () => {
  it('reads page, size, typed filters and sort from the query; the request maps them with data.params', () => {
    const { result } = setup({ page: '2', status: '3', time: '["2026-01-01","2026-01-31"]' });
    const p = result.current.p;
    expect([p.page, p.pageSize, p.paged]).toEqual([2, 20, true]);
    expect(p.filters).toEqual({ status: 3, time: ['2026-01-01', '2026-01-31'] });
    expect(p.sorters).toEqual([{ field: 'id', order: 'descend' }]);
    // arrays go only through data.params; the sort in the API's words
    expect(p.request).toEqual({ status: 3, page: 2, page_size: 20, sort_by: 'id', sort_order: 'desc', scope: 5, from: '2026-01-01' });
    expect(p.requestError).toBeNull();
  });

  it('writes filters, page and sort back; a filter or sort change returns to page 1; replace is passed on', () => {
    const { result } = setup({ page: '4' });
    act(() => result.current.p.setFilters({ name: 'ops', status: undefined }));
    expect(result.current.query.values).toEqual({ name: 'ops' });
    act(() => result.current.p.setPage(3, 50));
    expect(result.current.query.values).toEqual({ name: 'ops', page: '3', page_size: '50' });
    act(() => result.current.p.setSorters([{ field: 'name', order: 'ascend' }, { field: 'status', order: 'descend' }]));
    expect(result.current.query.values).toEqual({ name: 'ops', page_size: '50', sort_by: 'name', sort_order: 'ascend', then_by: 'status', then_order: 'descend' });
    expect(result.current.p.request).toMatchObject({ page: 1, sort_by: 'name', sort_order: 'asc', then_by: 'status', then_order: 'desc' });
    act(() => result.current.p.resetFilters());
    expect(result.current.query.values.name).toBeUndefined();
  });

  it('keeps filters and scope by value: a new params object with the same content changes nothing', () => {
    const { result, rerender } = setup({ status: '1' });
    const { filters, scope } = result.current.p;
    rerender({ params: { shop: 5 } });
    expect(result.current.p.filters).toBe(filters);
    expect(result.current.p.scope).toBe(scope);
    rerender({ params: { shop: 6 } });
    expect(result.current.p.scope).not.toBe(scope);
    expect(result.current.p.request.scope).toBe(6);
  });

  it('reports a failing data.params expression instead of throwing', () => {
    const broken = { ...schema, data: { api: 'GET thing/list', params: { x: '{{ nope( }}' } } } as unknown as ListSchema;
    const { result } = renderHook(() => useListParams(broken, useMemoryQuery({}), {}));
    expect(result.current.requestError).toBeInstanceOf(Error);
  });
});
