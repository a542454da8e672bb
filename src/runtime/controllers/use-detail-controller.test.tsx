import { act, renderHook, waitFor } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
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
  const { result } = renderHook(() => useDetailController(schema, { env, params: { id: '7' } }));
  await waitFor(() => expect(result.current.loading).toBe(false));
  expect(get).toHaveBeenCalledWith('role/detail', { id: 7 }, undefined);
  expect(result.current.record).toEqual({ id: 7, name: 'ops' });
  expect(result.current.scope.record).toEqual({ id: 7, name: 'ops' });
  act(() => result.current.refresh());
  await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
});
