/** Dev mode: the inspector shows the dev schema watch's errors (GET schema/watch-status) in both locales. */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_FIXTURES } from '../testing/admin-fixtures.js';
import { createFakeEnv } from '../testing/env.js';
import { createFakeHttp, readSchemaSet } from '../testing/fixtures.js';
import { renderSchemaPage } from '../testing/render.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const set = readSchemaSet(join(root, 'schemas'));
const emptyPage = { list: [], total: 0, page: 1, page_size: 10 };
const FILE = 'schemas/pages/admin_center/roles.json';

vi.setConfig({ testTimeout: 30_000 });
afterEach(cleanup);

function open(locale: 'zh-CN' | 'en-US', status: unknown) {
  const fallback = (method: string, path: string) =>
    path === 'schema/watch-status' ? status : method === 'GET' && /list$/.test(path) ? emptyPage : {};
  const env = createFakeEnv(createFakeHttp(set, ADMIN_FIXTURES, fallback), { root, locale, devMode: true });
  renderSchemaPage('/admin_center/authCenter/role', env);
  return env;
}

describe('inspector: dev schema watch', () => {
  const refused = { file: FILE, pointer: '/columns/2/widget', reason: 'unknown widget "BooleanTxt" (not in src/contract/widget-names.ts)' };

  it('counts the errors on the button and lists them as file#pointer: reason (en-US)', async () => {
    const env = open('en-US', { watching: true, refused: [refused], standing: [] });
    const button = await screen.findByTestId('schema-inspector', {}, { timeout: 8000 });
    expect(await screen.findByTitle('1 schema error(s)', {}, { timeout: 4000 })).toBeTruthy();
    fireEvent.click(button);
    expect((await screen.findByTestId('schema-watch-refused')).textContent).toBe(`${FILE}#/columns/2/widget: ${refused.reason}`);
    expect(screen.getByText('Refused edits (the last good version is still served)')).toBeTruthy();
    expect([...env.missing]).toEqual([]);
  });

  it('says when the server is not watching (zh-CN)', async () => {
    const env = open('zh-CN', { watching: false, refused: [], standing: [] });
    fireEvent.click(await screen.findByTestId('schema-inspector', {}, { timeout: 8000 }));
    expect(await screen.findByText('服务端未开启页面定义监听（SCHEMA_WATCH=1）')).toBeTruthy();
    expect([...env.missing]).toEqual([]);
  });
});
