import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAccess } from '../../contract/access.js';
import { ErrorBoundary } from '../../screens/ErrorBoundary.js';
import { Loading } from '../../screens/Loading.js';
import { createI18n } from '../i18n.js';
import { EMPTY_ACCESS } from '../../contract/access.js';
import { sessionStore } from '../session/store.js';
import { buildRouteConfig, findRoute, type PageProps } from '../../runtime/route-config.js';
import { Guard, GuardedPage } from './Guarded.js';
import { diskPermissionTree } from '../../../server/schemas/permission-tree.js';

const i18n = createI18n('zh-CN');
const Page = ({ path, params }: PageProps) => <div>page {path} {JSON.stringify(params)}</div>;
const config = buildRouteConfig(() => Page, diskPermissionTree());

function renderAt(url: string, pattern: string) {
  const entry = findRoute(config, pattern)!.entry;
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={pattern} element={<GuardedPage entry={entry} />} />
          <Route path="/no-permission" element={<div>denied</div>} />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

afterEach(() => cleanup());
afterEach(() => sessionStore.set({ access: EMPTY_ACCESS, currentModule: null, menuModule: null }));

describe('guarded routes', () => {
  it('renders the page with the canonical path and params when the key is held, tracking the module', () => {
    sessionStore.set({ access: buildAccess([{ id: 1, pid: 0, module: 'intelligent_text', permission_key: 'text.learn.material.detail' }], []) });
    renderAt('/intelligent_text/learn/material/detail/7', '/intelligent_text/learn/material/detail/:id');
    expect(screen.getByText('page /intelligent_text/learn/material/detail/:id {"id":"7"}')).toBeTruthy();
    expect(sessionStore.get().currentModule).toBe('intelligent_text');
    expect(sessionStore.get().menuModule).toBe('intelligent_text');
  });

  it('redirects to /no-permission without the key', () => {
    sessionStore.set({ access: buildAccess([{ id: 1, pid: 0, module: 'intelligent_text', permission_key: 'text.shop.list' }], []) });
    renderAt('/intelligent_text/learn/material', '/intelligent_text/learn/material');
    expect(screen.getByText('denied')).toBeTruthy();
  });

  it('lets the super admin through', () => {
    sessionStore.set({ access: buildAccess([], [{ is_super_admin: true }]) });
    renderAt('/admin_center/authCenter/role', '/admin_center/authCenter/role');
    expect(screen.getByText(/page \/admin_center\/authCenter\/role/)).toBeTruthy();
  });

  it('passes the common home for everyone', () => {
    render(
      <MemoryRouter>
        <Guard route={{ module: 'unauth_common', auth: false, key: 'common_home' }} module="unauth_common">
          <div>home</div>
        </Guard>
      </MemoryRouter>,
    );
    expect(screen.getByText('home')).toBeTruthy();
    expect(sessionStore.get().currentModule).toBe('unauth_common');
  });
});

describe('shell screens', () => {
  it('shows 加载中... while loading', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <Loading />
      </I18nextProvider>,
    );
    expect(screen.getByText('加载中...')).toBeTruthy();
  });

  it('shows the error-boundary page on a render failure', () => {
    const Boom = () => {
      throw new Error('boom');
    };
    const spy = console.error;
    console.error = () => undefined;
    render(
      <I18nextProvider i18n={i18n}>
        <ErrorBoundary>
          <Boom />
        </ErrorBoundary>
      </I18nextProvider>,
    );
    console.error = spy;
    expect(screen.getByText('页面出错了')).toBeTruthy();
    expect(screen.getByText('boom')).toBeTruthy();
  });
});
