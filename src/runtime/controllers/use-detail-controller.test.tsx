import { act, renderHook, waitFor } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { callApi } from '../api.js';
import { freshDataClient } from '../data-layer/testing.js';
import type { RuntimeEnv } from '../env.js';
import type { DetailSchema } from '../types.js';
import { useDetailController } from './use-detail-controller.js';

const schema = {
  kind: 'detail',
  load: { api: 'GET role/detail', params: { id: '{{ number(params.id) }}' } },
  sections: [],
} as unknown as DetailSchema;

it('loads the record with mapped params, exposes it to expressions and refreshes', async () => {
  const get = vi.fn(async () => ({ id: 7, name: 'ops' }));
  const env = { http: { get } } as unknown as RuntimeEnv;
  const { result } = renderHook(() => useDetailController(schema, { env, params: { id: '7' } }), { wrapper: freshDataClient().wrapper });
  await waitFor(() => expect(result.current.loading).toBe(false));
  expect(get).toHaveBeenCalledWith('role/detail', { id: 7 }, { signal: expect.any(AbortSignal) });
  expect(result.current.record).toEqual({ id: 7, name: 'ops' });
  expect(result.current.scope.record).toEqual({ id: 7, name: 'ops' });
  act(() => result.current.refresh());
  await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
});

it('reloads the shown record after a write to its resource, and not after a write elsewhere', async () => {
  let name = 'ops';
  const get = vi.fn(async () => ({ id: 7, name }));
  const post = vi.fn(async () => ({}));
  const env = { http: { get, post } } as unknown as RuntimeEnv;
  const { result } = renderHook(() => useDetailController(schema, { env, params: { id: '7' } }), { wrapper: freshDataClient().wrapper });
  await waitFor(() => expect(result.current.record?.name).toBe('ops'));
  await act(() => callApi(env.http, 'POST shop/update', {}));
  expect(get).toHaveBeenCalledTimes(1);
  name = 'admins';
  await act(() => callApi(env.http, 'POST role/update', { id: 7, name }));
  await waitFor(() => expect(result.current.record?.name).toBe('admins'));
  expect(get).toHaveBeenCalledTimes(2);
  expect(result.current.loads).toBe(2);
});
