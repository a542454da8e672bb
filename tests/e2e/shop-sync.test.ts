/**
 * A shop sync seen in Chromium (issue 24): with the demo data, one Shopify shop is connected to
 * the built-in Shopify sandbox; a sync of it runs as a job, and the sync log page shows the
 * finished sync's counts — 240 products, 60 orders, 4 policies, 304 new — labelled as the
 * sandbox, in Chinese and in English; its result page lists what came in; the shop's connection
 * form says it is the sandbox.
 * Run: npm run build && node --import tsx --test tests/e2e/shop-sync.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api } from './admin-helpers.js';
import { closeModal, rowAction, startHarness, type Harness } from './harness.js';

let h: Harness;
let page: Page;
const pageErrors: string[] = [];
let jobId = 0;
let shopId = 0;
let shopName = '';

const sid = async () => (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
  // the demo's sandbox shop: the first Shopify shop whose connection is the sandbox
  const shops = await api<Array<{ id: number; type: number; name: string }>>(page, 'shop-list', { env: 'all' });
  for (const s of shops.filter((x) => x.type === 1).sort((a, b) => a.id - b.id)) {
    const c = await api<{ sandbox: boolean; connected: boolean }>(page, 'shop/connection/detail', { shop_id: s.id });
    if (c.connected && c.sandbox) {
      shopId = s.id;
      shopName = s.name;
      break;
    }
  }
  assert.ok(shopId, 'the demo data connects a Shopify shop to the sandbox');
  const res = await page.request.post('/api/admin/shop/sync', { data: { shop_id: shopId, scope: 'all', days: 7 }, headers: { 'admin-token': await sid() } });
  const body = (await res.json()) as { code: number; msg: string; data: { job_id: number } };
  assert.equal(body.code, 10000, body.msg);
  jobId = body.data.job_id;
});

after(async () => {
  await page?.context().close();
  await h?.close();
  assert.deepEqual(pageErrors, [], 'no uncaught page errors');
});

/** the sync log's row of our job (its first cell is the id) */
const row = () => page.locator('[data-schema-id="intelligent_text.shop_sync_log"] tr.ant-table-row').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${jobId}$`) }) });

describe('the sync log shows a finished sandbox sync', () => {
  it('zh-CN: the row reaches 成功 with its counts and the sandbox label', async () => {
    await page.goto('/intelligent_text/shop/syncLog');
    // the list refreshes itself while a sync runs (refreshWhile): wait for the state, not for a time
    await row().getByText('成功', { exact: true }).waitFor({ timeout: 180_000 });
    const text = (await row().innerText()).replace(/\s+/g, ' ');
    assert.match(text, /沙箱（模拟器）/);
    for (const n of ['240', '60', '304']) assert.match(text, new RegExp(`(^| )${n}( |$)`), `${n} in "${text}"`);
    await h.shot(page, 'shop-sync-log-zh');
  });

  it('en-US: the result page says Sandbox, with the figures and what came in', async () => {
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-en-US').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en-US');
    await page.goto(`/intelligent_text/shop/syncLog/result/success/${jobId}`);
    const detail = page.locator('[data-schema-id="intelligent_text.shop_sync_result_success"]').first();
    await detail.getByText('Pulled from Shopify (sandbox): 240 products, 60 orders, 4 policies', { exact: false }).first().waitFor();
    await detail.getByText('Sandbox (emulator)', { exact: true }).first().waitFor();
    const items = page.locator('[data-schema-id="intelligent_text.shop_sync_items"] tr.ant-table-row');
    await items.first().waitFor();
    assert.ok((await items.count()) > 0);
    await h.shot(page, 'shop-sync-result-en');
  });

  it("en-US: the shop's connection form says it is the sandbox", async () => {
    await page.goto('/intelligent_text/shop/list');
    const list = page.locator('[data-schema-id="intelligent_text.shop_list"]').first();
    await list.locator('tr.ant-table-row').first().waitFor();
    await page.getByRole('textbox', { name: 'Keyword' }).fill(shopName);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = list.locator('tr.ant-table-row').filter({ hasText: shopName }).first();
    await row.waitFor();
    await rowAction(page, row, 'connect');
    const modal = page.locator('.ant-modal').last();
    await modal.waitFor();
    await modal.getByText('Sandbox: the built-in Shopify emulator answers with demo data', { exact: false }).first().waitFor();
    assert.equal(await modal.locator('.ant-switch-checked').count(), 1, 'the sandbox switch is on');
    await h.shot(page, 'shop-connect-en');
    await closeModal(page);
  });
});
