import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callApi } from '../api.js';
import { freshDataClient } from '../data-layer/testing.js';
import type { RuntimeEnv } from '../env.js';
import { useMemoryQuery } from '../query.js';
import type { ListSchema } from '../types.js';
import { nextSortKeys, useListController } from './use-list-controller.js';

const schema = {
  $schema: '../../meta/list.schema.json',
  id: 'demo.list',
  kind: 'list',
  schemaVersion: 1,
  version: 1,
  module: 'admin_center',
  title: 'admin.demo.title',
  data: { api: 'GET thing/list', params: { scope: '{{ params.shop }}', from: '{{ filters.time ? filters.time[0] : undefined }}' } },
  filters: {
    type: 'object',
    properties: { name: { type: 'string' }, status: { type: 'number' }, time: { type: 'array' } },
  },
  columns: [{ key: 'name', title: 'admin.demo.name', sorter: true }],
} as unknown as ListSchema;

const signal = { signal: expect.any(AbortSignal) };

function setup(initial: Record<string, string> = {}) {
  const get = vi.fn(async (_path: string, params?: Record<string, unknown>) => ({
    list: [{ id: 1, name: `row p${String(params?.page)}` }],
    total: 42,
    total_estimated: params?.page === 7,
    page: params?.page,
    page_size: params?.page_size,
  }));
  const env = { http: { get, post: vi.fn() } } as unknown as RuntimeEnv;
  const { client, wrapper } = freshDataClient();
  const hook = renderHook(
    () => {
      const query = useMemoryQuery(initial);
      return { query, ctl: useListController(schema, { env, query, params: { shop: 5 } }) };
    },
    { wrapper },
  );
  return { get, hook, client };
}

describe('useListController', () => {
  it('loads page 1 with page_size 10 and mapped params', async () => {
    const { get, hook } = setup();
    await waitFor(() => expect(hook.result.current.ctl.loading).toBe(false));
    expect(get).toHaveBeenCalledWith('thing/list', { page: 1, page_size: 10, scope: 5 }, signal);
    // requested once, during the first render (not again by the effect that reads the reply)
    expect(get).toHaveBeenCalledTimes(1);
    expect(hook.result.current.ctl.total).toBe(42);
    expect(hook.result.current.ctl.totalEstimated).toBe(false);
    expect(hook.result.current.ctl.rows[0].name).toBe('row p1');
  });

  it('starts the first request while rendering, before any commit', () => {
    const get = vi.fn(() => new Promise(() => undefined));
    const env = { http: { get, post: vi.fn() } } as unknown as RuntimeEnv;
    const seen: number[] = [];
    renderHook(
      () => {
        const query = useMemoryQuery({});
        const ctl = useListController(schema, { env, query, params: { shop: 5 } });
        seen.push(get.mock.calls.length);
        return ctl;
      },
      { wrapper: freshDataClient().wrapper },
    );
    expect(seen[0]).toBe(1);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('tells when the server estimated the total', async () => {
    const { hook } = setup({ page: '7' });
    await waitFor(() => expect(hook.result.current.ctl.loading).toBe(false));
    expect(hook.result.current.ctl.totalEstimated).toBe(true);
  });

  it('reads state from the query (shareable links) and writes filters, paging and sort back', async () => {
    const { get, hook } = setup({ page: '3', status: '1', name: 'ops' });
    await waitFor(() => expect(hook.result.current.ctl.loading).toBe(false));
    expect(get).toHaveBeenLastCalledWith('thing/list', { page: 3, page_size: 10, status: 1, name: 'ops', scope: 5 }, signal);
    expect(hook.result.current.ctl.filters).toEqual({ name: 'ops', status: 1 });

    act(() => hook.result.current.ctl.setFilters({ name: 'x', time: ['2026-01-01', '2026-01-02'] }));
    expect(hook.result.current.query.values).toEqual({ name: 'x', time: '["2026-01-01","2026-01-02"]' });
    await waitFor(() =>
      expect(get).toHaveBeenLastCalledWith('thing/list', { page: 1, page_size: 10, name: 'x', scope: 5, from: '2026-01-01' }, signal),
    );

    act(() => hook.result.current.ctl.setPage(2, 50));
    expect(hook.result.current.query.values).toMatchObject({ page: '2', page_size: '50' });
    act(() => hook.result.current.ctl.setSorter('name', 'descend'));
    await waitFor(() => expect(get.mock.lastCall?.[1]).toMatchObject({ page: 1, page_size: 50, sort_by: 'name', sort_order: 'desc' }));
    expect(hook.result.current.ctl.sorter).toEqual({ field: 'name', order: 'descend' });
  });

  it('sorts by a second key: then_by / then_order in the URL and the request; clearing the first promotes the second', async () => {
    const { get, hook } = setup({ sort_by: 'status', sort_order: 'ascend', then_by: 'name', then_order: 'descend' });
    await waitFor(() => expect(hook.result.current.ctl.loading).toBe(false));
    expect(get.mock.lastCall?.[1]).toMatchObject({ sort_by: 'status', sort_order: 'asc', then_by: 'name', then_order: 'desc' });
    expect(hook.result.current.ctl.sorters).toEqual([
      { field: 'status', order: 'ascend' },
      { field: 'name', order: 'descend' },
    ]);
    act(() => hook.result.current.ctl.setSorters(nextSortKeys(hook.result.current.ctl.sorters, [{ field: 'name', order: 'descend' }])));
    expect(hook.result.current.query.values).toMatchObject({ sort_by: 'name', sort_order: 'descend' });
    expect(hook.result.current.query.values.then_by).toBeUndefined();
    await waitFor(() => expect(get.mock.lastCall?.[1]).toMatchObject({ sort_by: 'name', sort_order: 'desc' }));
    expect(get.mock.lastCall?.[1]).not.toHaveProperty('then_by');
  });

  it('nextSortKeys: the first key stays first, a new column joins second and replaces an older second', () => {
    const a = { field: 'a', order: 'ascend' } as const;
    const b = { field: 'b', order: 'descend' } as const;
    const c = { field: 'c', order: 'ascend' } as const;
    expect(nextSortKeys([], [a])).toEqual([a]);
    // antd reports in column order; the earlier key stays first
    expect(nextSortKeys([b], [a, b])).toEqual([b, a]);
    expect(nextSortKeys([a, b], [a, b, c])).toEqual([a, c]);
    expect(nextSortKeys([a, b], [{ field: 'a', order: 'descend' }, b])).toEqual([{ field: 'a', order: 'descend' }, b]);
    expect(nextSortKeys([a, b], [{ field: 'a', order: null }, b])).toEqual([b]);
    expect(nextSortKeys([a], [{ field: 'a' }])).toEqual([]);
  });

  it('refresh reloads; selection is kept for batch actions; large pages go virtual', async () => {
    const { get, hook } = setup({ page_size: '500' });
    await waitFor(() => expect(hook.result.current.ctl.loading).toBe(false));
    expect(hook.result.current.ctl.virtual).toBe(true);
    const n = get.mock.calls.length;
    act(() => hook.result.current.ctl.refresh());
    await waitFor(() => expect(get.mock.calls.length).toBe(n + 1));
    act(() => hook.result.current.ctl.setSelection([1], [{ id: 1 }]));
    expect(hook.result.current.ctl.scope.selectedKeys).toEqual([1]);
  });

  it('lands on the previous page when a delete empties the last page (the emptied page is replaced in history)', async () => {
    let rows = Array.from({ length: 21 }, (_, i) => ({ id: i + 1, name: `r${i + 1}` }));
    const get = vi.fn(async (_path: string, p?: Record<string, unknown>) => {
      const page = Number(p?.page ?? 1);
      const size = Number(p?.page_size ?? 10);
      return { list: rows.slice((page - 1) * size, page * size), total: rows.length };
    });
    const post = vi.fn(async (_path: string, body?: unknown) => {
      const ids = (body as { ids: number[] }).ids;
      rows = rows.filter((r) => !ids.includes(r.id));
      return { ids };
    });
    const env = { http: { get, post } } as unknown as RuntimeEnv;
    const sets: Array<Record<string, unknown>> = [];
    const hook = renderHook(
      () => {
        const query = useMemoryQuery({ page: '3' });
        const spy = { values: query.values, set: (n: Record<string, string | undefined>, o?: { replace?: boolean }) => (sets.push({ ...n, replace: o?.replace }), query.set(n)) };
        return useListController(schema, { env, query: spy, params: { shop: 5 } });
      },
      { wrapper: freshDataClient().wrapper },
    );
    await waitFor(() => expect(hook.result.current.rows.map((r) => r.id)).toEqual([21]));
    expect(hook.result.current.page).toBe(3);
    // a batch delete of the last row, as a batch action runs it: the request, then refresh
    await act(async () => {
      await callApi(env.http, 'POST thing/batch-delete', { ids: [21] });
      hook.result.current.refresh();
    });
    await waitFor(() => expect(hook.result.current.page).toBe(2));
    expect(sets.at(-1)).toMatchObject({ page: '2', replace: true });
    await waitFor(() => expect(hook.result.current.rows.map((r) => r.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]));
    expect(hook.result.current.total).toBe(20);
  });

  it('shows a list seen before from the cache without a request; a write makes the next visit ask again', async () => {
    const { client, wrapper } = freshDataClient();
    const get = vi.fn(async () => ({ list: [{ id: 1, name: 'cached' }], total: 1 }));
    const env = { http: { get, post: vi.fn(async () => ({})) } } as unknown as RuntimeEnv;
    const mount = () =>
      renderHook(
        () => {
          const query = useMemoryQuery({});
          return useListController(schema, { env, query, params: { shop: 5 } });
        },
        { wrapper },
      );
    const first = mount();
    await waitFor(() => expect(first.result.current.loading).toBe(false));
    first.unmount();
    expect(get).toHaveBeenCalledTimes(1);

    // back to the list: rows at the first render, no loading state, no request
    const back = mount();
    expect(back.result.current.rows[0].name).toBe('cached');
    expect(back.result.current.loading).toBe(false);
    expect(get).toHaveBeenCalledTimes(1);
    back.unmount();

    // a write elsewhere (another resource): the cached rows show, and they are asked for again
    await callApi(env.http, 'POST other/update', { id: 1 });
    expect(client.getQueryState(['api', 'GET thing/list', { page: 1, page_size: 10, scope: 5 }])?.isInvalidated).toBe(true);
    const after = mount();
    expect(after.result.current.rows[0].name).toBe('cached');
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(after.result.current.loading).toBe(false));
  });

  it('cancels the request through its AbortSignal when the list goes away before the reply', async () => {
    let seen: AbortSignal | undefined;
    const get = vi.fn((_p: string, _q?: unknown, o?: { signal?: AbortSignal }) => {
      seen = o?.signal;
      return new Promise(() => undefined);
    });
    const env = { http: { get, post: vi.fn() } } as unknown as RuntimeEnv;
    const hook = renderHook(
      () => {
        const query = useMemoryQuery({});
        return useListController(schema, { env, query, params: { shop: 5 } });
      },
      { wrapper: freshDataClient().wrapper },
    );
    expect(seen?.aborted).toBe(false);
    hook.unmount();
    await waitFor(() => expect(seen?.aborted).toBe(true));
  });
});
