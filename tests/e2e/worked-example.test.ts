/**
 * docs/schemas.md's worked example, followed literally (issue 11, "one file per simple page"):
 * the page file and the locale keys are the fenced code blocks of the docs (```json file=…``` and
 * ```json locale=… ns=…```), so the docs and this test cannot drift apart. They are written into
 * a copy of the project's schemas and locale files while a server watches that copy
 * (SCHEMA_WATCH=1, SCHEMAS_DIR); then, through the API, a role holding only the new page's
 * permission and a user of that role are made, a model call is made (a connection test against a
 * stand-in model server, so the log has a row), and in Chromium the user signs in, opens the page
 * from the side menu and sees the call, with the docs' texts (the console was built without them).
 * Run: node --import tsx --test tests/e2e/worked-example.test.ts
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../api/ai/fake-openai.js';
import { waitList } from './admin-helpers.js';
import { ROOT, startHarness, type Harness } from './harness.js';

interface Block {
  info: Record<string, string>;
  text: string;
}

/** The fenced code blocks of the worked example section whose info string names a file or a locale. */
export function exampleBlocks(md: string): { file: { path: string; text: string }; locales: Array<{ locale: string; ns: string; keys: Record<string, unknown> }> } {
  const start = md.indexOf('## Worked example');
  assert.ok(start >= 0, 'docs/schemas.md has a worked example');
  const section = md.slice(start, md.indexOf('\n## ', start + 1));
  const blocks: Block[] = [];
  for (const m of section.matchAll(/^```json ([^\n]+)\n([\s\S]*?)^```$/gm)) {
    const info = Object.fromEntries(m[1].split(/\s+/).map((kv) => kv.split('=') as [string, string]));
    blocks.push({ info, text: m[2] });
  }
  const files = blocks.filter((b) => b.info.file);
  assert.equal(files.length, 1, 'one page file in the example');
  return {
    file: { path: files[0].info.file, text: files[0].text },
    locales: blocks.filter((b) => b.info.locale).map((b) => ({ locale: b.info.locale, ns: b.info.ns, keys: JSON.parse(b.text) as Record<string, unknown> })),
  };
}

const example = exampleBlocks(readFileSync(path.join(ROOT, 'docs/schemas.md'), 'utf8'));
const doc = JSON.parse(example.file.text) as { id: string; permission: string; routes: string[]; module: string };
const copy = mkdtempSync(path.join(tmpdir(), 'bo-worked-example-'));

let h: Harness;
let fake: FakeOpenAI;
let adminPage: Page;
let page: Page;
const USER = { email: 'reader@e2e.test', password: 'e2e-log-viewer-secret-9' };

async function call<T>(p: Page, method: 'GET' | 'POST', apiPath: string, data?: Record<string, string | number | unknown>): Promise<T> {
  const sid = (await p.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
  const res =
    method === 'GET'
      ? await p.request.get(`/api/admin/${apiPath}`, { params: data as Record<string, string>, headers: { 'admin-token': sid } })
      : await p.request.post(`/api/admin/${apiPath}`, { data, headers: { 'admin-token': sid } });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  assert.equal(body.code, 10000, `${method} ${apiPath}: ${body.code} ${body.msg}`);
  return body.data;
}

before(async () => {
  cpSync(path.join(ROOT, 'schemas'), path.join(copy, 'schemas'), { recursive: true });
  cpSync(path.join(ROOT, 'src/locales'), path.join(copy, 'src/locales'), { recursive: true });
  // the harness starts the server with this process's environment
  process.env.SCHEMAS_DIR = path.join(copy, 'schemas');
  process.env.SCHEMA_WATCH = '1';
  fake = await startFakeOpenAI({});
  h = await startHarness();
  adminPage = await h.newPage();
  adminPage.setDefaultTimeout(60_000);
  await h.signIn(adminPage, h.admin);
});

after(async () => {
  await adminPage?.context().close();
  await page?.context().close();
  await h?.close();
  await fake?.close();
  delete process.env.SCHEMAS_DIR;
  delete process.env.SCHEMA_WATCH;
  rmSync(copy, { recursive: true, force: true });
});

describe('docs/schemas.md worked example', () => {
  it('adds a menu page with one JSON file and locale keys, live; a role holding only its key opens it from the menu', async () => {
    // 2. the locale keys (merged into the namespace files), then 1. the page file
    for (const l of example.locales) {
      const file = path.join(copy, 'src/locales', l.locale, `${l.ns}.json`);
      const tree = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...tree, ...l.keys }, null, 2) + '\n');
    }
    const target = path.join(copy, example.file.path);
    writeFileSync(target, example.file.text);

    // the watch serves it and seeds its permission row
    const [module, ...rest] = doc.permission.split('.');
    const key = rest.join('.');
    interface PermRow {
      id: number;
      permission_key: string;
      permission_name: string;
      permission_name_en: string;
      permission_type: number;
      frontend_route: string;
    }
    let row: PermRow | undefined;
    for (let i = 0; i < 100 && !row; i++) {
      const found = await call<{ list: PermRow[] }>(adminPage, 'GET', 'permission/list', { module, keyword: key, page_size: '50' });
      row = found.list.find((p) => p.permission_key === key);
      if (!row) await new Promise((r) => setTimeout(r, 300));
    }
    assert.ok(row, `the permission row of ${doc.permission} was seeded by the watch:\n${h.log().slice(-3000)}`);
    const zh = example.locales.find((l) => l.locale === 'zh-CN')!.keys as { modelCall: { title: string } };
    const en = example.locales.find((l) => l.locale === 'en-US')!.keys as { modelCall: { title: string } };
    assert.deepEqual(
      { name: row.permission_name, en: row.permission_name_en, type: row.permission_type, route: row.frontend_route },
      { name: zh.modelCall.title, en: en.modelCall.title, type: 2, route: doc.routes[0] },
    );

    // a role with only that permission, a user of that role
    const role = await call<{ id: number }>(adminPage, 'POST', 'role/create', { name: 'Model call readers', permission_ids: [row.id] });
    await call(adminPage, 'POST', 'account/create', { email: USER.email, name: 'Model call reader', password: USER.password, role_ids: [role.id] });

    // a model call to list: a connection test against the stand-in model server
    const server = await call<{ id: number }>(adminPage, 'POST', 'config/model-server/create', {
      name: 'E2E worked example',
      model: 'ok-e2e',
      endpoint: fake.baseUrl,
      timeout_ms: 10000,
    });
    await call(adminPage, 'POST', 'config/model-server/test', { id: server.id });

    // in Chromium: sign in, open the page from the side menu, see the call
    page = await h.newPage();
    page.setDefaultTimeout(60_000);
    await h.signIn(page, USER);
    await page.getByTestId('side-menu').waitFor();
    const item = page.getByTestId(`menu-item-${doc.routes[0]}`);
    if (!(await item.isVisible())) await page.getByTestId('side-menu').getByText('配置中心', { exact: true }).click();
    await item.click();
    await page.waitForURL((u) => u.pathname === doc.routes[0]);
    const table = await waitList(page, doc.id);
    await table.locator('tr.ant-table-row').filter({ hasText: 'E2E worked example' }).first().waitFor();
    // the texts are the docs' locale keys, although the console was built before they existed
    // (under the dev watch the server sends its locale files with the permission tree)
    const zhKeys = zh.modelCall as unknown as Record<string, string>;
    await page.locator('.ant-table-thead').getByText(zhKeys.latency, { exact: true }).waitFor();
    assert.ok(await page.getByText(zhKeys.title).first().isVisible(), 'the page title, from the locale file');
    assert.equal(await page.getByText(/config\.modelCall\./).count(), 0, 'no raw i18n key on the page');
    // the user holds only this page: the menu shows no other page of the module
    const items = await page.locator('[data-testid^="menu-item-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    assert.deepEqual(items, [`menu-item-${doc.routes[0]}`]);
    await h.shot(page, 'worked-example-model-calls');
  });
});
