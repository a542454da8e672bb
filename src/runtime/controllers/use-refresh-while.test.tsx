import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshDataClient } from '../data-layer/testing.js';
import type { RuntimeEnv } from '../env.js';
import { useMemoryQuery } from '../query.js';
import type { DetailSchema, ListSchema } from '../types.js';
import { useDetailController } from './use-detail-controller.js';
import { useListController } from './use-list-controller.js';
import { refreshMatches, rowsOf } from './use-refresh-while.js';

const listSchema = (refreshWhile: object): ListSchema =>
  ({
    id: 'demo.jobs',
    kind: 'list',
    schemaVersion: 1,
    version: 1,
    module: 'admin_center',
    title: 'admin.demo.title',
    data: { api: 'GET job/list', params: { task: '{{ params.task }}' } },
    columns: [{ key: 'state', title: 'admin.demo.state' }],
    rowSelection: 'checkbox',
    refreshWhile,
  }) as unknown as ListSchema;

/** Replies in turn (the last one repeats). */
const replies = <T,>(...list: T[]) => {
  let i = 0;
  return () => list[Math.min(i++, list.length - 1)];
};

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  vi.useFakeTimers();
  setVisibility('visible');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('refreshMatches', () => {
  it('tests rows, a page of rows or one record; values compare as text', () => {
    const spec = { field: 'status', in: ['running', 0] };
    expect(refreshMatches(spec, [{ status: 'done' }, { status: 'running' }])).toBe(true);
    expect(refreshMatches(spec, { list: [{ status: 'done' }] })).toBe(false);
    expect(refreshMatches(spec, { status: '0' })).toBe(true);
    expect(refreshMatches(spec, { status: null })).toBe(false);
    expect(refreshMatches({ field: 'job.state', in: ['queued'] }, [{ job: { state: 'queued' } }])).toBe(true);
    expect(rowsOf(null)).toEqual([]);
  });
});

describe('list refreshWhile', () => {
  function setup(schema: ListSchema, get: (path: string, params?: Record<string, unknown>) => unknown) {
    const http = { get: vi.fn(async (path: string, params?: Record<string, unknown>) => get(path, params)), post: vi.fn() };
    const env = { http } as unknown as RuntimeEnv;
    const loadingSeen: boolean[] = [];
    const hook = renderHook(
      () => {
        const query = useMemoryQuery({});
        const ctl = useListController(schema, { env, query, params: { task: 7 } });
        loadingSeen.push(ctl.loading);
        return ctl;
      },
      { wrapper: freshDataClient().wrapper },
    );
    const calls = (path: string) => http.get.mock.calls.filter((c) => c[0] === path).length;
    return { http, hook, calls, loadingSeen };
  }

  it('reloads quietly every interval while a row runs, keeps the selection, stops when none runs', async () => {
    const next = replies(
      { list: [{ id: 1, state: 'running', done: 1 }, { id: 2, state: 'done' }], total: 2 },
      { list: [{ id: 1, state: 'running', done: 2 }, { id: 2, state: 'done' }], total: 2 },
      { list: [{ id: 1, state: 'done', done: 3 }, { id: 2, state: 'done' }], total: 2 },
    );
    const { hook, calls, loadingSeen } = setup(listSchema({ field: 'state', in: ['queued', 'running'], intervalMs: 1000 }), next);
    await tick(0);
    expect(hook.result.current.rows[0].done).toBe(1);
    expect(hook.result.current.live).toBe(true);
    act(() => hook.result.current.setSelection([1], [hook.result.current.rows[0]]));
    const before = loadingSeen.length;

    await tick(1000);
    expect(calls('job/list')).toBe(2);
    expect(hook.result.current.rows[0].done).toBe(2);
    // the selection keeps its keys and follows the fresh row
    expect(hook.result.current.selectedKeys).toEqual([1]);
    expect(hook.result.current.selectedRows[0].done).toBe(2);

    await tick(1000);
    expect(calls('job/list')).toBe(3);
    expect(hook.result.current.rows[0].state).toBe('done');
    expect(hook.result.current.live).toBe(false);
    // quiet: the list never went back to its loading state
    expect(loadingSeen.slice(before).every((l) => l === false)).toBe(true);

    await tick(5000);
    expect(calls('job/list')).toBe(3);
  });

  it('pauses while the tab is hidden and reloads at once when it shows again', async () => {
    const { calls } = setup(listSchema({ field: 'state', in: ['running'], intervalMs: 1000 }), () => ({ list: [{ id: 1, state: 'running' }], total: 1 }));
    await tick(0);
    await tick(1000);
    expect(calls('job/list')).toBe(2);
    act(() => setVisibility('hidden'));
    await tick(5000);
    expect(calls('job/list')).toBe(2);
    act(() => setVisibility('visible'));
    await tick(0);
    expect(calls('job/list')).toBe(3);
    await tick(1000);
    expect(calls('job/list')).toBe(4);
  });

  it('with a watch: asks it after the first load, reloads while it matches, once more when it stops', async () => {
    const task = replies({ status: 'running' }, { status: 'running' }, { status: 'finished' });
    const schema = listSchema({ field: 'status', in: ['running'], intervalMs: 2000, watch: { api: 'GET task/detail', params: { id: '{{ params.task }}' } } });
    const { http, calls } = setup(schema, (path) => (path === 'task/detail' ? task() : { list: [{ id: 1 }], total: 1 }));
    await tick(0);
    expect(calls('task/detail')).toBe(1);
    expect(http.get).toHaveBeenCalledWith('task/detail', { id: 7 }, undefined);
    await tick(2000); // watch: running → reload
    expect([calls('task/detail'), calls('job/list')]).toEqual([2, 2]);
    await tick(2000); // watch: finished → the last reload, then idle (one more look after that load)
    expect([calls('task/detail'), calls('job/list')]).toEqual([4, 3]);
    await tick(10_000);
    expect([calls('task/detail'), calls('job/list')]).toEqual([4, 3]);
  });

  it('does nothing without a match', async () => {
    const { calls, hook } = setup(listSchema({ field: 'state', in: ['running'] }), () => ({ list: [{ id: 1, state: 'done' }], total: 1 }));
    await tick(0);
    await tick(10_000);
    expect(calls('job/list')).toBe(1);
    expect(hook.result.current.live).toBe(false);
  });
});

describe('detail refreshWhile', () => {
  it('reloads the record quietly while it runs and counts its loads', async () => {
    const next = replies({ id: 3, status: 0, done: 1 }, { id: 3, status: 0, done: 2 }, { id: 3, status: 1, done: 3 });
    const http = { get: vi.fn(async () => next()), post: vi.fn() };
    const schema = {
      id: 'demo.doc',
      kind: 'detail',
      load: { api: 'GET doc/detail', params: { id: '{{ params.id }}' } },
      sections: [],
      refreshWhile: { field: 'status', in: [0], intervalMs: 500 },
    } as unknown as DetailSchema;
    const seen: Array<{ loading: boolean; record: unknown }> = [];
    const hook = renderHook(
      () => {
        const ctl = useDetailController(schema, { env: { http } as unknown as RuntimeEnv, params: { id: 3 } });
        seen.push({ loading: ctl.loading, record: ctl.record });
        return ctl;
      },
      { wrapper: freshDataClient().wrapper },
    );
    await tick(0);
    expect(hook.result.current.loads).toBe(1);
    const from = seen.length;
    await tick(500);
    await tick(500);
    expect(hook.result.current.record?.done).toBe(3);
    expect(hook.result.current.loads).toBe(3);
    expect(hook.result.current.live).toBe(false);
    expect(seen.slice(from).every((s) => !s.loading && s.record)).toBe(true);
    await tick(5000);
    expect(http.get).toHaveBeenCalledTimes(3);
  });
});
