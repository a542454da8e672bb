/**
 * How a schema page gets on screen: route lookup and schema load in one step (one spinner,
 * one state change), no spinner for a schema cached by hash, hot reload when a schema's hash
 * changes (dev polling / SCHEMA_WATCH), the error panel with id and JSON pointer, and a
 * broken schema fixed by a later reload.
 */
import '../testing/dom-polyfills.js';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSchemaLoader, type SchemaLoader } from '../../runtime/loader.js';
import { createDefaultRegistry } from '../registry.js';
import { createFakeEnv } from '../testing/env.js';
import { createFakeHttp, type Doc } from '../testing/fixtures.js';
import { RuntimeProvider, SchemaPage } from './SchemaPage.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ROUTE = '/admin_center/stages';

const listDoc = (over: Doc = {}): Doc => ({
  $schema: '../../meta/list.schema.json',
  id: 'admin_center.stages.list',
  kind: 'list',
  schemaVersion: 1,
  version: 1,
  module: 'admin_center',
  routes: [ROUTE],
  title: 'admin.role.title',
  data: { api: 'GET thing/list' },
  columns: [{ key: 'name', title: 'admin.role.name' }],
  ...over,
});

function setup(doc: Doc, registry = createDefaultRegistry({ strict: true })) {
  const set = { pages: [doc], enums: {} };
  const http = createFakeHttp(set, { 'GET thing/list': () => ({ list: [{ id: 1, name: 'row one', ok: true }], total: 1 }) });
  const env = createFakeEnv(http, { root });
  const loader = createSchemaLoader(http, { storage: null });
  const page = (path = ROUTE) => (
    <MemoryRouter initialEntries={[path]}>
      <RuntimeProvider env={env} registry={registry} loader={loader}>
        <SchemaPage path={path} params={{}} />
      </RuntimeProvider>
    </MemoryRouter>
  );
  return { set, http, env, loader, page };
}

const detailCalls = (http: { calls: Array<{ path: string }> }) => http.calls.filter((c) => c.path === 'schema/detail').length;

// the generated validators are a large module: import them once, outside the per-test timeout
beforeAll(async () => {
  await import('../../contract/generated/validators.js');
}, 60_000);
afterEach(cleanup);

describe('schema page stages', () => {
  it('finds the route and loads the schema in one step, then renders without a spinner when cached', async () => {
    const { http, loader, page } = setup(listDoc());
    const first = render(page());
    expect(document.querySelector('.ant-spin')).not.toBeNull();
    expect(await screen.findByText('row one', {}, { timeout: 15_000 })).toBeTruthy();
    expect(http.calls.filter((c) => c.path === 'schema/list')).toHaveLength(1);
    expect(detailCalls(http)).toBe(1);
    first.unmount();

    // a second visit: the loader answers during render, so the page is there at once
    expect(loader.peekRoute(ROUTE)?.loaded.id).toBe('admin_center.stages.list');
    render(page());
    expect(document.querySelector('[data-schema-id="admin_center.stages.list"]')).not.toBeNull();
    expect(detailCalls(http)).toBe(1);
  }, 30_000);

  it('loads the code of the widgets the schema names before the page renders (no placeholders)', async () => {
    let arrive: (c: unknown) => void = () => undefined;
    const code = new Promise((resolve) => (arrive = resolve));
    const registry = createDefaultRegistry({ strict: true, extra: [{ name: 'SlowCell', kind: 'display', load: () => code as never }] });
    const { page } = setup(listDoc({ columns: [{ key: 'name', title: 'admin.role.name', widget: 'SlowCell' }] }), registry);
    render(page());
    await new Promise((r) => setTimeout(r, 300));
    // schema loaded and checked, but its widget's code is not here yet: still the spinner, no page
    expect(document.querySelector('[data-schema-id]')).toBeNull();
    expect(document.querySelector('.ant-spin')).not.toBeNull();
    await act(async () => arrive(({ value }: { value: unknown }) => <b>slow {String(value)}</b>));
    expect(await screen.findByText('slow row one', {}, { timeout: 15_000 })).toBeTruthy();
    expect(document.querySelector('[data-widget-loading]')).toBeNull();
  }, 30_000);

  it('reloads the page when its schema changes (dev polling) and keeps it on screen meanwhile', async () => {
    const { set, loader, page } = setup(listDoc());
    render(page());
    expect(await screen.findByText('row one', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getAllByText('Roles').length).toBeGreaterThan(0);
    set.pages[0] = listDoc({ version: 2, title: 'admin.account.title' });
    await act(async () => {
      await loader.refreshList();
    });
    await waitFor(() => expect(screen.getAllByText('Accounts').length).toBeGreaterThan(0));
    expect(screen.queryByText('Roles')).toBeNull();
  }, 30_000);

  it('names id and JSON pointer for a broken schema, and shows the page once the file is fixed', async () => {
    const { set, loader, page } = setup(listDoc({ columns: [{ key: 'name', title: 'admin.role.name', colour: 'red' }] }));
    render(page());
    const panel = await screen.findByTestId('schema-error-panel', {}, { timeout: 15_000 });
    expect(panel.textContent).toMatch(/admin_center\.stages\.list/);
    expect(panel.textContent).toMatch(/\/columns\/0/);
    set.pages[0] = listDoc({ version: 2 });
    await act(async () => {
      await loader.refreshList();
    });
    expect(await screen.findByText('row one', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByTestId('schema-error-panel')).toBeNull();
  }, 30_000);

  it('says so when no schema has the route, and when schema/list fails', async () => {
    const { page } = setup(listDoc());
    const a = render(page('/admin_center/nowhere'));
    expect(await screen.findByTestId('schema-missing', {}, { timeout: 15_000 })).toBeTruthy();
    a.unmount();

    const failing = setup(listDoc());
    const broken: SchemaLoader = createSchemaLoader({ ...failing.http, get: () => Promise.reject(new Error('offline')) }, { storage: null });
    render(
      <MemoryRouter initialEntries={[ROUTE]}>
        <RuntimeProvider env={failing.env} loader={broken}>
          <SchemaPage path={ROUTE} params={{}} />
        </RuntimeProvider>
      </MemoryRouter>,
    );
    const panel = await screen.findByTestId('schema-error-panel', {}, { timeout: 15_000 });
    expect(panel.textContent).toMatch(/schema\/list/);
    expect(panel.textContent).toMatch(/offline/);
  }, 30_000);
});
