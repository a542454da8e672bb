import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { freshDataClient } from '../data-layer/testing.js';
import type { RuntimeEnv } from '../env.js';
import type { ListSchema } from '../types.js';
import { readPage, useListQuery } from './use-list-query.js';

const schema = { id: 'demo.list', kind: 'list', data: { api: 'GET thing/list' }, columns: [] } as unknown as ListSchema;

describe('useListQuery', () => {
  it('readPage reads a page reply or a plain array', () => {
    expect(readPage({ list: [{ id: 1 }], total: 40, total_estimated: true })).toEqual({ rows: [{ id: 1 }], total: 40, totalEstimated: true });
    expect(readPage([{ id: 1 }, { id: 2 }])).toEqual({ rows: [{ id: 1 }, { id: 2 }], total: 2, totalEstimated: false });
    expect(readPage(undefined)).toEqual({ rows: [], total: 0, totalEstimated: false });
  });

  it('keeps the previous page on screen (loading) while the next one loads, then shows it', async () => {
    let release: (() => void) | undefined;
    const get = vi.fn(async (_p: string, q?: Record<string, unknown>) => {
      if (q?.page === 2) await new Promise<void>((r) => (release = r));
      return { list: [{ id: q?.page }], total: 20 };
    });
    const env = { http: { get, post: vi.fn() } } as unknown as RuntimeEnv;
    const { result, rerender } = renderHook(({ page }) => useListQuery(schema, env, { page }, null), {
      initialProps: { page: 1 },
      wrapper: freshDataClient().wrapper,
    });
    await waitFor(() => expect(result.current.settled).toBe(true));
    rerender({ page: 2 });
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    expect(result.current.rows).toEqual([{ id: 1 }]);
    expect(result.current.loading).toBe(true);
    expect(result.current.settled).toBe(false);
    release?.();
    await waitFor(() => expect(result.current.rows).toEqual([{ id: 2 }]));
    expect(result.current.loads).toBe(2);
  });

  it('a quiet reload shows no loading state and keeps the rows when it fails; the failure shows no error', async () => {
    let fail = false;
    let release: (() => void) | undefined;
    const get = vi.fn(async () => {
      if (fail) {
        await new Promise<void>((r) => (release = r));
        throw new Error('down');
      }
      return { list: [{ id: 1 }], total: 1 };
    });
    const env = { http: { get, post: vi.fn() } } as unknown as RuntimeEnv;
    const { result } = renderHook(() => useListQuery(schema, env, {}, null), { wrapper: freshDataClient().wrapper });
    await waitFor(() => expect(result.current.settled).toBe(true));
    fail = true;
    const done = result.current.refreshQuietly();
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    expect(result.current.loading).toBe(false);
    release?.();
    await done;
    await waitFor(() => expect(result.current.loads).toBe(2));
    expect(result.current.rows).toEqual([{ id: 1 }]);
    expect(result.current.error).toBeNull();
  });

  it('a loud failure shows its error and is not kept: the next mount asks again', async () => {
    const get = vi.fn(async () => {
      throw new Error('down');
    });
    const env = { http: { get, post: vi.fn() } } as unknown as RuntimeEnv;
    const { wrapper } = freshDataClient();
    const first = renderHook(() => useListQuery(schema, env, {}, null), { wrapper });
    await waitFor(() => expect((first.result.current.error as Error)?.message).toBe('down'));
    first.unmount();
    renderHook(() => useListQuery(schema, env, {}, null), { wrapper });
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
  });
});
