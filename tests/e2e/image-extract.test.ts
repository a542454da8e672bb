/**
 * Image extraction in Chromium against the real server with the demo seed (no vision model
 * server): the add form uploads an image (the ImageUpload widget) and shows it from the console
 * (a blob: URL fetched with the session, so the page's CSP shows it); saving with "extract after
 * upload" on lists the row with its extraction state — no vision model — and the reason, and the
 * row's image is drawn from the console too. Screenshot: /tmp/shots/image-extract-*.png.
 * Run: npm run build && node --import tsx --test tests/e2e/image-extract.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';
import { api, listRow, openAdminPage, settle, waitList } from './admin-helpers.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let h: Harness;
let page: Page;
const errors: string[] = [];

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await h.signIn(page, h.admin);
});
after(async () => {
  await page?.context().close();
  await h?.close();
});

describe('image extraction page', () => {
  it('uploads an image in the add form, saves it with extraction on, and the row says no vision model', async () => {
    await openAdminPage(page, '/intelligent_text/operationsTools/imageExtraction/add');
    await page.getByTestId('form-submit').waitFor({ timeout: 20_000 });
    const form = page.locator('form, .ant-formily-layout').first();
    // shop
    await form.locator('.ant-select').first().click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().click();
    const title = `E2E image ${Date.now()}`;
    await page.locator('input#title, .ant-formily-item input[type=text]').first().fill(title);
    await page.getByTestId('image-upload-input').setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: PNG });
    const preview = page.locator('.ant-image img').first();
    await preview.waitFor({ timeout: 20_000 });
    assert.match((await preview.getAttribute('src')) ?? '', /^blob:/);
    assert.ok(await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 1), 'the uploaded image is drawn');
    await settle(page);
    await h.shot(page, 'image-extract-add');
    await page.getByTestId('form-submit').click();

    const table = await waitList(page, 'intelligent_text.config.image_list');
    const row = listRow(page, title);
    await row.waitFor({ timeout: 20_000 });
    assert.match(await row.innerText(), /No vision model|无可用视觉模型/);
    assert.match(await row.innerText(), /vision|视觉/);
    const img = row.locator('.ant-image img');
    await img.waitFor({ timeout: 20_000 });
    assert.match((await img.getAttribute('src')) ?? '', /^blob:/);
    assert.ok(await table.isVisible());
    await settle(page);
    await h.shot(page, 'image-extract-list');

    const rows = await api<{ list: Array<{ title: string; extract_status: number; image_url: string }> }>(page, 'image-extraction/list', { keyword: title });
    assert.equal(rows.list[0]?.extract_status, 4);
    assert.match(rows.list[0]?.image_url ?? '', /^\/api\/admin\/image-extraction\/image\?id=\d+$/);
    assert.deepEqual(errors.filter((e) => /Content Security Policy|Refused to load/i.test(e)), []);
  });
});
