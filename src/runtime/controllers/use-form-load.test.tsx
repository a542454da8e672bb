import '../../widgets/testing/dom-polyfills.js';
import { createForm } from '@formily/core';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callApi } from '../api.js';
import { freshDataClient } from '../data-layer/testing.js';
import type { RuntimeEnv } from '../env.js';
import { useFormLoad } from './use-form-load.js';

const load = { api: 'GET thing/detail', params: { id: '{{ params.id }}' } };
const scope = { params: { id: 4 } };

describe('useFormLoad', () => {
  it('asks afresh each time a form opens (a cached record is never edited) and takes the reply once', async () => {
    let name = 'first';
    const get = vi.fn(async () => ({ id: 4, name }));
    const env = { http: { get, post: vi.fn(async () => ({})) } } as unknown as RuntimeEnv;
    const { wrapper } = freshDataClient();
    const form = createForm();
    const first = renderHook(() => useFormLoad(form, load, env, scope), { wrapper });
    await waitFor(() => expect(first.result.current.loading).toBe(false));
    expect(form.values).toMatchObject({ name: 'first' });
    expect(get).toHaveBeenCalledWith('thing/detail', { id: 4 }, { signal: expect.any(AbortSignal) });

    // a write to the resource while the form is open reloads the key, but the fields stay as edited
    form.setValues({ name: 'edited' });
    name = 'second';
    await callApi(env.http, 'POST thing/update', { id: 4 });
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    expect(form.values).toMatchObject({ name: 'edited' });
    first.unmount();

    // opened again: asks, though the reply is cached
    const again = createForm();
    const second = renderHook(() => useFormLoad(again, load, env, scope), { wrapper });
    expect(second.result.current.loading).toBe(true);
    await waitFor(() => expect(second.result.current.loading).toBe(false));
    expect(get).toHaveBeenCalledTimes(3);
    expect(again.values).toMatchObject({ name: 'second' });
  });

  it('reports a failed load, and needs nothing without a load call', async () => {
    const get = vi.fn(async () => {
      throw new Error('gone');
    });
    const env = { http: { get, post: vi.fn() } } as unknown as RuntimeEnv;
    const { wrapper } = freshDataClient();
    const failed = renderHook(() => useFormLoad(createForm(), load, env, scope), { wrapper });
    await waitFor(() => expect((failed.result.current.loadError as Error)?.message).toBe('gone'));
    expect(failed.result.current.loading).toBe(false);
    const none = renderHook(() => useFormLoad(createForm(), undefined, env, scope), { wrapper });
    expect(none.result.current).toEqual({ loading: false, loadError: null });
  });
});
