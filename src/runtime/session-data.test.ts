import { describe, expect, it, vi } from 'vitest';
import { callApi } from './api.js';
import type { HttpPort } from './env.js';
import { clearSessionData, isSessionLookup, preloadSessionData, sessionLookup } from './session-data.js';

function port(): HttpPort & { get: ReturnType<typeof vi.fn>; post: ReturnType<typeof vi.fn> } {
  return { get: vi.fn(async () => [{ id: 1, label: '1-a' }]), post: vi.fn(async () => ({})), download: vi.fn(), upload: vi.fn() } as never;
}

describe('session-wide lookups', () => {
  it('loads shop-list env=all once at start-up and serves every picker from it', async () => {
    clearSessionData();
    const http = port();
    preloadSessionData(http);
    expect(isSessionLookup('GET shop-list', { env: 'all' })).toBe(true);
    expect(isSessionLookup('GET shop-list', { env: 'prod' })).toBe(false);
    const [a, b] = await Promise.all([sessionLookup(http, 'GET shop-list', { env: 'all' }), sessionLookup(http, 'GET shop-list', { env: 'all' })]);
    expect(a).toEqual([{ id: 1, label: '1-a' }]);
    expect(b).toBe(a);
    expect(http.get).toHaveBeenCalledTimes(1);
    expect(http.get).toHaveBeenCalledWith('shop-list', { env: 'all' }, { silent: true });
  });

  it('drops the kept list after a shop is created, updated or deleted (not after other writes), and on sign-out', async () => {
    clearSessionData();
    const http = port();
    await sessionLookup(http, 'GET shop-list', { env: 'all' });
    await callApi(http, 'POST shop/policy/create', {});
    await sessionLookup(http, 'GET shop-list', { env: 'all' });
    expect(http.get).toHaveBeenCalledTimes(1);
    for (const write of ['POST shop/create', 'POST shop/update', 'POST shop/delete', 'POST shop/batch-delete']) {
      await callApi(http, write, {});
      await sessionLookup(http, 'GET shop-list', { env: 'all' });
    }
    expect(http.get).toHaveBeenCalledTimes(5);
    clearSessionData();
    await sessionLookup(http, 'GET shop-list', { env: 'all' });
    expect(http.get).toHaveBeenCalledTimes(6);
  });

  it('does not keep a failed load', async () => {
    clearSessionData();
    const http = port();
    http.get.mockRejectedValueOnce(new Error('offline'));
    await expect(sessionLookup(http, 'GET shop-list', { env: 'all' })).rejects.toThrow('offline');
    await expect(sessionLookup(http, 'GET shop-list', { env: 'all' })).resolves.toHaveLength(1);
  });
});
