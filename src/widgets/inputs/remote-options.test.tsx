/** Remote options: one request per API and params, labels in the page's language (labelKeys) without a new request. */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RuntimeContext, type Runtime } from '../../runtime/context.js';
import { createDefaultRegistry } from '../registry.js';
import { createFakeEnv } from '../testing/env.js';
import { useRemoteOptions } from './use-remote-options.js';
import type { HttpPort } from '../../runtime/env.js';

afterEach(cleanup);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function Labels() {
  const { options } = useRemoteOptions({ api: 'GET notification/target-types', labelKeys: { 'zh-CN': 'label', 'en-US': 'label_en' } });
  return <span data-testid="labels">{options.map((o) => `${o.value}:${o.label}`).join(',')}</span>;
}

describe('useRemoteOptions', () => {
  it('labels options by the locale with labelKeys', async () => {
    const get = vi.fn(async () => [
      { id: 1, label: 'Shopify', label_en: 'Shopify' },
      { id: 2, label: '抖音', label_en: 'Douyin' },
    ]);
    const http = { get, post: vi.fn() } as unknown as HttpPort;
    for (const locale of ['zh-CN', 'en-US'] as const) {
      const env = createFakeEnv(http, { root, locale });
      render(
        <RuntimeContext.Provider value={{ env, registry: createDefaultRegistry({ strict: true }), user: null, loader: null } as unknown as Runtime}>
          <Labels />
        </RuntimeContext.Provider>,
      );
      await waitFor(() => expect(screen.getByTestId('labels').textContent).toBe(locale === 'zh-CN' ? '1:Shopify,2:抖音' : '1:Shopify,2:Douyin'));
      cleanup();
    }
    // the second render reused the first one's request (cached per API and params)
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('takes plain values as options (plan/config currencies) from a path of the reply', async () => {
    function Currencies() {
      const { options } = useRemoteOptions({ api: 'GET plan/config', path: 'currencies' });
      return <span data-testid="currencies">{options.map((o) => `${o.value}:${o.label}`).join(',')}</span>;
    }
    const get = vi.fn(async () => ({ products: [], currencies: ['USD', 'CNY'] }));
    const http = { get, post: vi.fn() } as unknown as HttpPort;
    const env = createFakeEnv(http, { root, locale: 'en-US' });
    render(
      <RuntimeContext.Provider value={{ env, registry: createDefaultRegistry({ strict: true }), user: null, loader: null } as unknown as Runtime}>
        <Currencies />
      </RuntimeContext.Provider>,
    );
    await waitFor(() => expect(screen.getByTestId('currencies').textContent).toBe('USD:USD,CNY:CNY'));
  });

  it('waits for a param fed by another field (the chosen user), then labels the shops with their mail accounts', async () => {
    function Shops({ id }: { id?: number }) {
      const { options, loading } = useRemoteOptions({
        api: 'GET user/shop-mail-list',
        params: { id },
        optionLabel: "name + (length(mail_accounts) ? ' <' + join(pick(mail_accounts, 'email'), ', ') + '>' : '')",
      });
      return <span data-testid="shops">{loading ? 'loading' : options.map((o) => `${o.value}:${o.label}`).join(',')}</span>;
    }
    const get = vi.fn(async () => [
      { id: 3, name: 'Shop A', mail_accounts: [{ id: 1, email: 'a@x.example' }, { id: 2, email: 'b@x.example' }] },
      { id: 4, name: 'Shop B', mail_accounts: [] },
    ]);
    const http = { get, post: vi.fn() } as unknown as HttpPort;
    const env = createFakeEnv(http, { root, locale: 'en-US' });
    const wrap = (id?: number) => (
      <RuntimeContext.Provider value={{ env, registry: createDefaultRegistry({ strict: true }), user: null, loader: null } as unknown as Runtime}>
        <Shops id={id} />
      </RuntimeContext.Provider>
    );
    const view = render(wrap(undefined));
    await waitFor(() => expect(screen.getByTestId('shops').textContent).toBe(''));
    expect(get).not.toHaveBeenCalled();
    view.rerender(wrap(9));
    await waitFor(() => expect(screen.getByTestId('shops').textContent).toBe('3:Shop A <a@x.example, b@x.example>,4:Shop B'));
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0]).toEqual(expect.arrayContaining(['user/shop-mail-list', { id: 9 }]));
  });

  it('keeps no failure: after a failed request the next picker asks again (not for 30 s the failure)', async () => {
    function Roles() {
      const { options, loading } = useRemoteOptions({ api: 'GET role/options' });
      return <span data-testid="roles">{loading ? 'loading' : options.map((o) => o.label).join(',') || 'none'}</span>;
    }
    let fail = true;
    const get = vi.fn(async () => {
      if (fail) throw new Error('down');
      return [{ id: 1, name: 'ops' }];
    });
    const http = { get, post: vi.fn() } as unknown as HttpPort;
    const env = createFakeEnv(http, { root, locale: 'en-US' });
    const wrap = () => (
      <RuntimeContext.Provider value={{ env, registry: createDefaultRegistry({ strict: true }), user: null, loader: null } as unknown as Runtime}>
        <Roles />
      </RuntimeContext.Provider>
    );
    render(wrap());
    await waitFor(() => expect(screen.getByTestId('roles').textContent).toBe('none'));
    cleanup();
    fail = false;
    render(wrap());
    await waitFor(() => expect(screen.getByTestId('roles').textContent).toBe('ops'));
    expect(get).toHaveBeenCalledTimes(2);
    expect(get.mock.calls[1]).toEqual(['role/options', {}, expect.objectContaining({ silent: true, signal: expect.any(AbortSignal) })]);
  });
});
