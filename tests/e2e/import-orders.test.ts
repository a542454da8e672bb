/**
 * Order import in Chromium against the real server with the demo seed: the order page's Import
 * button uploads a small CSV (two good rows, one with a bad email); the report modal lists each
 * row with its result (created, and rejected naming `email`); the good orders landed.
 * Screenshot: /tmp/shots/import-orders-report.png.
 * Run: npm run build && node --import tsx --test tests/e2e/import-orders.test.ts
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';
import { api, openAdminPage, waitList } from './admin-helpers.js';

let h: Harness;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
});
after(async () => {
  await page?.context().close();
  await h?.close();
});

describe('order import', () => {
  it('uploads a CSV from the order page and sees the per-row report', async () => {
    await openAdminPage(page, '/intelligent_text/order/shopify');
    await waitList(page, 'intelligent_text.order_list');
    const shops = await api<{ list: Array<{ id: number }> }>(page, 'shop/list', { page: 1, page_size: 1 });
    const shopId = shops.list[0].id;
    const stamp = Date.now();
    const csv = [
      'external_id,shop_id,name,email,amount,currency,financial_status,fulfillment_status,created_at',
      `e2e-${stamp}-1,${shopId},#E2E${stamp}A,a@example.com,10,USD,paid,unfulfilled,2026-03-01 10:00:00`,
      `e2e-${stamp}-2,${shopId},#E2E${stamp}B,b@example.com,20,USD,paid,fulfilled,2026-03-02 10:00:00`,
      `e2e-${stamp}-3,${shopId},#E2E${stamp}C,not-an-email,30,USD,paid,fulfilled,2026-03-03 10:00:00`,
    ].join('\n');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'bo-import-')), 'orders.csv');
    writeFileSync(file, csv);

    const chooser = page.waitForEvent('filechooser');
    await page.locator('[data-action="import"]').first().click();
    await (await chooser).setFiles(file);

    const report = page.getByTestId('import-report');
    await report.waitFor({ timeout: 20_000 });
    const rows = report.locator('tr.ant-table-row');
    assert.equal(await rows.count(), 3);
    const bad = rows.filter({ hasText: `e2e-${stamp}-3` });
    assert.match(await bad.innerText(), /email/);
    assert.match(await bad.innerText(), /Rejected|拒绝/);
    assert.match(await rows.filter({ hasText: `e2e-${stamp}-1` }).innerText(), /Created|新增/);
    await h.shot(page, 'import-orders-report');
    // antd spaces two-character Chinese button texts ("关 闭"): the footer's one button
    await report.locator('.ant-modal-footer button').click();
    await report.waitFor({ state: 'detached' });

    // the good rows landed (by the API: the list's first page may be newer demo orders)
    const landed = await api<{ total: number }>(page, 'order/list', { name: `#E2E${stamp}A` });
    assert.equal(landed.total, 1);
    assert.equal((await api<{ total: number }>(page, 'order/list', { name: `#E2E${stamp}C` })).total, 0);
  });

  it('no uncaught page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
