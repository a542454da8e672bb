/**
 * Acceptance: a NEW list page needs one JSON file (plus locale keys and a manifest entry) and
 * no React code. The schema is written to a temp dir and served like any other.
 */
import { screen, waitFor } from '@testing-library/react';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createFakeEnv } from '../testing/env.js';
import { createFakeHttp, readSchemaSet } from '../testing/fixtures.js';
import { renderSchemaPage } from '../testing/render.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

it('renders a list page from one new JSON file with data', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bo-schemas-'));
  mkdirSync(join(dir, 'pages', 'admin_center'), { recursive: true });
  writeFileSync(
    join(dir, 'pages', 'admin_center', 'login-history.json'),
    JSON.stringify({
      $schema: '../../meta/list.schema.json',
      id: 'admin_center.login_history.list',
      kind: 'list',
      schemaVersion: 1,
      version: 1,
      module: 'admin_center',
      routes: ['/admin_center/authCenter/loginHistory'],
      title: 'admin.audit.title',
      data: { api: 'GET audit-log/list', params: { action: 'login' } },
      columns: [
        { key: 'actor_email', title: 'admin.audit.actor' },
        { key: 'created_at', title: 'admin.audit.time', widget: 'DateTime', sorter: true },
      ],
    }),
  );
  const set = { ...readSchemaSet(dir), enums: readSchemaSet(join(root, 'schemas')).enums };
  const http = createFakeHttp(set, {
    'GET audit-log/list': (p: Record<string, unknown>) => ({
      list: [{ id: 1, actor_email: `someone@example.com (${String(p.action)})`, created_at: '2026-03-04T05:06:07' }],
      total: 1,
      page: p.page,
      page_size: p.page_size,
    }),
  });
  const env = createFakeEnv(http, { root });
  renderSchemaPage('/admin_center/authCenter/loginHistory', env);
  expect(await screen.findByText('someone@example.com (login)', {}, { timeout: 15_000 })).toBeTruthy();
  expect(screen.getByText('2026-03-04 05:06:07')).toBeTruthy();
  const call = http.calls.find((c) => c.path === 'audit-log/list');
  expect(call?.data).toEqual({ page: 1, page_size: 10, action: 'login' });
  await waitFor(() => expect(screen.queryByTestId('schema-error-panel')).toBeNull());
}, 30_000);

it('renders a tabs page whose tabs are other schemas (active tab in the URL query)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bo-schemas-'));
  mkdirSync(join(dir, 'pages'), { recursive: true });
  const base = readSchemaSet(join(root, 'schemas'));
  writeFileSync(
    join(dir, 'pages', 'tabs.json'),
    JSON.stringify({
      $schema: '../meta/tabs.schema.json',
      id: 'admin_center.auth.tabs',
      kind: 'tabs',
      schemaVersion: 1,
      version: 1,
      module: 'admin_center',
      routes: ['/admin_center/authCenter/all'],
      title: 'admin.permission.title',
      tabs: [
        { key: 'roles', title: 'admin.role.title', schema: 'admin_center.role.list' },
        { key: 'logs', title: 'admin.audit.title', schema: 'admin_center.audit_log.list' },
      ],
    }),
  );
  const set = { pages: [...readSchemaSet(dir).pages, ...base.pages], enums: base.enums };
  const { ADMIN_FIXTURES } = await import('../testing/admin-fixtures.js');
  const env = createFakeEnv(createFakeHttp(set, ADMIN_FIXTURES), { root });
  renderSchemaPage('/admin_center/authCenter/all?tab=logs', env);
  expect(await screen.findByText('admin@example.com', {}, { timeout: 15_000 })).toBeTruthy();
  expect(screen.getAllByText('Roles').length).toBeGreaterThan(0);
}, 30_000);
