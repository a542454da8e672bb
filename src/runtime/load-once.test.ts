import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './load-once.js';

describe('loadOnce', () => {
  it('shares one load, keeps its value, and tries again after a failure', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(42);
    const get = loadOnce(load);
    await expect(Promise.all([get(), get()])).rejects.toThrow('offline');
    expect(load).toHaveBeenCalledTimes(1);
    expect(get.peek()).toBeUndefined();
    expect(await get()).toBe(42);
    expect(await get()).toBe(42);
    expect(load).toHaveBeenCalledTimes(2);
    expect(get.peek()).toBe(42);
  });
});
