import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { callApi } from '../api.js';
import type { HttpPort } from '../env.js';
import { clearSessionData } from '../session-data.js';
import { connectDataClient, createDataClient, STALE_MS } from './client.js';
import { apiKey, keyOfResource, readApi, resourceOf } from './keys.js';

describe('data keys', () => {
  it('keys a read by API ref and params; the resource is the path without its last segment', () => {
    expect(apiKey(' GET shop/list ', { page: 1 })).toEqual(['api', 'GET shop/list', { page: 1 }]);
    expect(resourceOf('shop/batch-delete')).toBe('shop');
    expect(resourceOf('call-center/task/delete')).toBe('call-center/task');
    expect(resourceOf('config')).toBe('config');
    expect(keyOfResource(apiKey('GET shop/list', {}), 'shop')).toBe(true);
    expect(keyOfResource(apiKey('GET shop-list', {}), 'shop')).toBe(false);
    expect(keyOfResource(['form', 'no-load', {}], 'shop')).toBe(false);
  });

  it('reads with the signal, a POST read through post without counting as a write', async () => {
    const http = { get: vi.fn(async () => 'g'), post: vi.fn(async () => 'p') } as unknown as HttpPort;
    const ac = new AbortController();
    await readApi(http, 'POST learn-doc/get-content', { id: 1 }, ac.signal);
    expect(http.post).toHaveBeenCalledWith('learn-doc/get-content', { id: 1 }, { signal: ac.signal });
  });
});

describe('data client', () => {
  const setup = () => {
    const client = createDataClient();
    const disconnect = connectDataClient(client);
    const fetches: string[] = [];
    const fn = (name: string) => async () => (fetches.push(name), name);
    return { client, disconnect, fetches, fn };
  };

  it('a write reloads the shown keys of its resource and marks every other key stale', async () => {
    const { client, disconnect, fetches, fn } = setup();
    const shops = apiKey('GET shop/list', { page: 1 });
    const customers = apiKey('GET customer/list', {});
    // the shop list is shown (observed), the customer list only cached
    const observer = new QueryObserver(client, { queryKey: shops, queryFn: fn('shops') });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(fetches).toEqual(['shops']));
    await client.prefetchQuery({ queryKey: customers, queryFn: fn('customers') });
    expect(client.getQueryState(customers)?.isInvalidated).toBe(false);

    const http = { post: vi.fn(async () => ({})) } as unknown as HttpPort;
    await callApi(http, 'POST shop/delete', { id: 1 });
    await vi.waitFor(() => expect(fetches).toEqual(['shops', 'customers', 'shops']));
    // not reloaded now, but asked for again when next shown
    expect(client.getQueryState(customers)?.isInvalidated).toBe(true);
    stop();
    disconnect();
  });

  it('keeps replies 30 s, keeps no failure, and forgets everything at sign-out', async () => {
    const { client, disconnect } = setup();
    expect(STALE_MS).toBe(30_000);
    const key = apiKey('GET role/list', {});
    let fail = true;
    const queryFn = vi.fn(async () => {
      if (fail) throw new Error('down');
      return 'ok';
    });
    await expect(client.fetchQuery({ queryKey: key, queryFn })).rejects.toThrow('down');
    fail = false;
    // the failure is not an answer: the next read asks again
    expect(await client.fetchQuery({ queryKey: key, queryFn })).toBe('ok');
    expect(await client.fetchQuery({ queryKey: key, queryFn })).toBe('ok');
    expect(queryFn).toHaveBeenCalledTimes(2);
    clearSessionData();
    expect(client.getQueryData(key)).toBeUndefined();
    disconnect();
  });
});
