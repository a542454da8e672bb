/**
 * Every schema in schemas/ renders (strict registry: an unknown widget throws) with recorded
 * fixtures, so a broken schema fails CI. admin_center pages also show their fixture data.
 */
import { screen, waitFor, cleanup } from '@testing-library/react';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_FIXTURES } from '../testing/admin-fixtures.js';
import { createFakeEnv } from '../testing/env.js';
import { createFakeHttp, readSchemaSet, routesOf } from '../testing/fixtures.js';
import { renderOpenForm } from '../testing/open-form.js';
import { renderSchemaPage } from '../testing/render.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const set = readSchemaSet(join(root, 'schemas'));
const emptyPage = { list: [], total: 0, page: 1, page_size: 10 };
const fallback = (method: string, path: string) => (method === 'GET' && /list$/.test(path) ? emptyPage : method === 'GET' ? {} : {});
const concrete = (route: string) => route.replace(/:[A-Za-z_]+/g, '1');

vi.setConfig({ testTimeout: 30_000 });
afterEach(cleanup);

function setup(locale: 'zh-CN' | 'en-US' = 'en-US') {
  const http = createFakeHttp(set, ADMIN_FIXTURES, fallback);
  const env = createFakeEnv(http, { root, locale });
  return { http, env };
}

async function settle() {
  await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull(), { timeout: 4000 });
}

describe('every schema renders', () => {
  const pages = set.pages.filter((d) => routesOf(d).length);
  it.each(pages.flatMap((d) => routesOf(d).map((r) => [String(d.id), r] as const)))('%s at %s', async (id, route) => {
    const { env } = setup();
    renderSchemaPage(concrete(route), env);
    await waitFor(() => expect(document.querySelector(`[data-schema-id="${id}"]`)).not.toBeNull(), { timeout: 8000 });
    await settle();
    expect(screen.queryByTestId('schema-error-panel')).toBeNull();
    expect(screen.queryByTestId('unknown-widget')).toBeNull();
  });

  const dialogs = set.pages.filter((d) => d.kind === 'form' && d.presentation !== 'page');
  it.each(dialogs.flatMap((d) => Object.keys(d.modes as object).map((m) => [String(d.id), m] as const)))('%s (%s) opens', async (id, mode) => {
    const { env } = setup();
    renderOpenForm({ form: id, mode: mode as 'add' | 'edit' | 'view', params: { id: 1 }, record: { id: 1 } }, env);
    await waitFor(() => expect(document.querySelector('.ant-modal, .ant-drawer')).not.toBeNull(), { timeout: 8000 });
    expect(screen.queryByTestId('unknown-widget')).toBeNull();
  });
});

describe('admin_center schemas', () => {
  it('role list shows rows, translated texts and row actions', async () => {
    const { env } = setup();
    renderSchemaPage('/admin_center/authCenter/role', env);
    expect(await screen.findByText('Auditors', {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByText('Roles')).toBeTruthy();
    expect(screen.getAllByText('Edit').length).toBeGreaterThan(0);
    expect([...env.missing]).toEqual([]);
  });

  it('account list shows role names and the status tag from the enum', async () => {
    const { env } = setup();
    renderSchemaPage('/admin_center/authCenter/account', env);
    expect(await screen.findByText('Olga Ops', {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByText('Operators')).toBeTruthy();
    expect(screen.getByText('Enabled')).toBeTruthy();
    expect([...env.missing]).toEqual([]);
  });

  it('audit log list shows before / after as a diff', async () => {
    const { env } = setup('zh-CN');
    renderSchemaPage('/admin_center/authCenter/auditLogs', env);
    expect(await screen.findByText('Operators', {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByText('Ops')).toBeTruthy();
    expect(screen.getByText('审计日志')).toBeTruthy();
    expect([...env.missing]).toEqual([]);
  });

  it('permission tree list and the role detail page render', async () => {
    const { env } = setup();
    renderSchemaPage('/admin_center/authCenter/permissions', env);
    expect(await screen.findByText('管理中心', {}, { timeout: 8000 })).toBeTruthy();
    cleanup();
    renderSchemaPage('/admin_center/authCenter/role/detail/7', env);
    expect(await screen.findByText('Role detail', {}, { timeout: 8000 })).toBeTruthy();
    await screen.findAllByText('Operators');
    expect([...env.missing]).toEqual([]);
  });

  it('dev mode shows the schema inspector with id and version', async () => {
    const http = createFakeHttp(set, ADMIN_FIXTURES, fallback);
    const env = createFakeEnv(http, { root, devMode: true });
    renderSchemaPage('/admin_center/authCenter/role', env);
    const button = await screen.findByTestId('schema-inspector', {}, { timeout: 8000 });
    const role = set.pages.find((d) => d.id === 'admin_center.role.list')!;
    expect(button.textContent).toContain(`admin_center.role.list v${String(role.version)}`);
  });

  it('hides actions the caller lacks the permission for', async () => {
    const http = createFakeHttp(set, ADMIN_FIXTURES, fallback);
    const env = createFakeEnv(http, { root, can: (k) => !k.endsWith('.delete') });
    renderSchemaPage('/admin_center/authCenter/role', env);
    await screen.findByText('Auditors', {}, { timeout: 8000 });
    expect(screen.queryByText('Delete')).toBeNull();
    expect(screen.getAllByText('Edit').length).toBe(2);
  });
});
