/**
 * The intelligent_text and intelligent_voice business pages (JSON schemas only) in Chromium
 * against the real server with the demo data: every route shows rows as the super admin, a
 * notification is created (with the shop-type rule) and pushed, a document is uploaded and
 * learned, the copy-policy modal refuses source = target, and a plan order's change log opens.
 * Run: node --import tsx --test tests/e2e/text-pages.test.ts   (screenshots in /tmp/shots)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { closeModal, rowAction, startHarness, type Harness } from './harness.js';
import { settle } from './admin-helpers.js';

let h: Harness;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  page.setDefaultTimeout(60_000); // other suites may share the 2 cores
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
});

after(async () => {
  await page?.context().close();
  await h?.close();
});

const schema = (id: string) => page.locator(`[data-schema-id="${id}"]`);
const rows = (id: string) => schema(id).locator('.ant-table-tbody tr.ant-table-row');

/** Opens a route and waits for the schema and (for lists) at least one row from the demo data. */
async function open(route: string, id: string, listId: string | null = id): Promise<void> {
  await page.goto(route);
  await schema(id).first().waitFor({ timeout: 60_000 });
  if (listId) await rows(listId).first().waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'), undefined, { timeout: 60_000 });
  assert.equal(await page.getByTestId('schema-error-panel').count(), 0, `${route}: schema error panel`);
  assert.equal(await page.getByTestId('unknown-widget').count(), 0, `${route}: unknown widget`);
  assert.equal(await page.locator('.ant-card .ant-alert-error').count(), 0, `${route}: error alert`);
}

/** Opens the n-th select of a dialog and takes its first option (keyboard: no clicks on animating dropdowns). */
async function pickFirst(dialog: ReturnType<Page['locator']>, index: number, search?: string): Promise<void> {
  await dialog.locator('.ant-select').nth(index).click();
  if (search) await page.keyboard.type(search);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
}

const ok = () => page.locator('.ant-modal-confirm-btns .ant-btn-primary, .ant-popconfirm-buttons .ant-btn-primary').last();
const success = () => page.locator('.ant-message-success').last();

describe('intelligent_text pages show the demo data', () => {
  const lists: Array<[string, string, string?]> = [
    ['/intelligent_text/shop/list', 'intelligent_text.shop_list'],
    ['/intelligent_text/shop/plan', 'intelligent_text.plan_list'],
    ['/intelligent_text/shop/plan_order', 'intelligent_text.plan_order_list'],
    ['/intelligent_text/shop/customerList', 'intelligent_text.customer_tabs', 'intelligent_text.customer_list'],
    ['/intelligent_text/shop/customerList?tab=search&id=1', 'intelligent_text.customer_tabs', 'intelligent_text.customer_search'],
    ['/intelligent_text/order/shopify', 'intelligent_text.order_list'],
    ['/intelligent_text/merchantNotice/noticeList', 'intelligent_text.notice_list'],
    ['/intelligent_text/learn/material', 'intelligent_text.material_list'],
    ['/intelligent_text/learn/policyManagement', 'intelligent_text.policy_list'],
    ['/intelligent_text/learn/storePolicy', 'intelligent_text.store_policy_list'],
    ['/intelligent_text/learn/autoLearnPolicy', 'intelligent_text.auto_policy_list'],
    ['/intelligent_text/learn/autoLearnProduct', 'intelligent_text.auto_product_list'],
    ['/intelligent_text/learn/productKnowledge', 'intelligent_text.product_knowledge_tabs', 'intelligent_text.product_desc_list'],
    ['/intelligent_text/learn/productKnowledge?tab=douyin', 'intelligent_text.product_knowledge_tabs', 'intelligent_text.douyin_product_list'],
    ['/intelligent_text/learn/docManage', 'intelligent_text.doc_list'],
    ['/intelligent_text/learn/textAssistant', 'intelligent_text.assistant_list'],
  ];
  for (const [route, id, listId] of lists) {
    it(`${route} lists rows`, async () => {
      await open(route, id, listId ?? id);
      const name = route.replace(/^\/intelligent_text\//, 'text-').replace(/[/?=&]/g, '_');
      await h.shot(page, name);
    });
  }

  it('shop list filters by env through the URL query', async () => {
    await open('/intelligent_text/shop/list?env=prod&is_test=false', 'intelligent_text.shop_list');
    // the env column by its header (a selection column and column settings move positions)
    const headers = await schema('intelligent_text.shop_list').locator('thead th').allInnerTexts();
    const col = headers.findIndex((t) => t.trim() === '环境') + 1;
    assert.ok(col > 0, `headers: ${headers.join('|')}`);
    const envs = await rows('intelligent_text.shop_list').locator(`td:nth-child(${col})`).allInnerTexts();
    assert.ok(envs.length > 0 && envs.every((e) => e.trim() === '生产' || e.includes('正式') || e.includes('prod')), `envs: ${envs.join(',')}`);
  });

  it('material detail page opens from the list and shows the question', async () => {
    await open('/intelligent_text/learn/material', 'intelligent_text.material_list');
    await rows('intelligent_text.material_list').first().locator('[data-action="detail"]').click();
    await page.waitForURL(/\/learn\/material\/detail\/\d+$/);
    await schema('intelligent_text.material_detail').waitFor();
    await page.locator('.ant-descriptions-item-label', { hasText: '问题' }).waitFor();
    await h.shot(page, 'text-material-detail');
  });

  it('text assistant detail, edit and add pages open', async () => {
    await open('/intelligent_text/learn/textAssistant', 'intelligent_text.assistant_list');
    await rows('intelligent_text.assistant_list').first().locator('[data-action="detail"]').click();
    await page.waitForURL(/\/textAssistant\/detail\/\d+$/);
    await schema('intelligent_text.assistant_detail').waitFor();
    await page.locator('.bo-json').first().waitFor();
    await h.shot(page, 'text-assistant-detail');
    const id = page.url().split('/').pop();
    await open(`/intelligent_text/learn/textAssistant/edit/${id}`, 'intelligent_text.assistant_form', null);
    await page.waitForFunction(() => (document.querySelector('#name, input[id$="name"]') as HTMLInputElement | null)?.value !== '');
    await open('/intelligent_text/learn/textAssistant/add', 'intelligent_text.assistant_form', null);
    await h.shot(page, 'text-assistant-add');
  });

  it('order source-data modal shows the raw JSON', async () => {
    await open('/intelligent_text/order/shopify', 'intelligent_text.order_list');
    await rows('intelligent_text.order_list').first().locator('[data-action="raw"]').click();
    const modal = page.locator('.ant-modal').last();
    // the source JSON of the order (loaded by order/detail)
    await modal.locator('.bo-json', { hasText: '"' }).waitFor();
    await h.shot(page, 'text-order-raw');
    await closeModal(page);
  });

  it('plan order change log opens', async () => {
    await open('/intelligent_text/shop/plan_order', 'intelligent_text.plan_order_list');
    // four row actions: the log is in the "more" menu
    await rows('intelligent_text.plan_order_list').first().locator('[data-action="__more"]').click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [data-action="log"]').click();
    const modal = page.locator('.ant-modal').last();
    await modal.getByText('套餐订单变更记录').waitFor();
    await modal.locator('.bo-json').first().waitFor();
    await h.shot(page, 'text-plan-order-log');
    await closeModal(page);
  });

  it('copy policy refuses the same source and target shop and warns it cannot be undone', async () => {
    await open('/intelligent_text/shop/list', 'intelligent_text.shop_list');
    await rowAction(page, rows('intelligent_text.shop_list').first(), 'copyPolicy');
    const modal = page.locator('.ant-modal').last();
    await modal.getByText('不可撤销').waitFor();
    // the row's shop is the source; pick the same shop as target
    const sourceLabel = await modal.locator('.ant-select-selection-item').first().innerText();
    await pickFirst(modal, 1, sourceLabel.slice(0, 20));
    await modal.getByTestId('form-submit').click();
    await modal.getByText('源店铺和目标店铺不能相同').waitFor();
    await h.shot(page, 'text-copy-policy');
    await closeModal(page);
  });
});

describe('intelligent_voice pages show the demo data', () => {
  const lists: Array<[string, string, string?]> = [
    ['/intelligent_voice/customer/list', 'intelligent_voice.shop_list'],
    ['/intelligent_voice/customer/plan', 'intelligent_voice.plan_list'],
    ['/intelligent_voice/customer/plan_order', 'intelligent_voice.plan_order_list'],
    ['/intelligent_voice/customer/customerList', 'intelligent_voice.customer_tabs', 'intelligent_voice.customer_list'],
  ];
  for (const [route, id, listId] of lists) {
    it(`${route} lists rows`, async () => {
      await open(route, id, listId ?? id);
      await h.shot(page, route.replace(/^\/intelligent_voice\//, 'voice-').replace(/\//g, '_'));
    });
  }
});

describe('forms save through the real calls', () => {
  it('edits a shop and saves it unchanged', async () => {
    await open('/intelligent_text/shop/list', 'intelligent_text.shop_list');
    await rowAction(page, rows('intelligent_text.shop_list').first(), 'edit');
    const modal = page.locator('.ant-modal').last();
    await modal.getByText('编辑店铺').waitFor();
    await page.waitForFunction(() => {
      const input = document.querySelector('.ant-modal input.ant-input') as HTMLInputElement | null;
      return Boolean(input?.value);
    });
    await h.shot(page, 'text-shop-edit');
    await modal.getByTestId('form-submit').click();
    await page.locator('.ant-message-success', { hasText: '已保存' }).waitFor();
  });

  it('creates a plan order in the drawer and sees it in its change log', async () => {
    await open('/intelligent_text/shop/plan_order', 'intelligent_text.plan_order_list');
    await schema('intelligent_text.plan_order_list').locator('[data-action="add"]').click();
    const drawer = page.locator('.ant-drawer').last();
    await drawer.getByText('新增套餐订单').waitFor();
    await settle(page); // the drawer's opening animation over before the first click on submit
    await drawer.getByTestId('form-submit').click();
    await drawer.getByText('请选择客户').waitFor();
    await pickFirst(drawer, 0); // customer
    await pickFirst(drawer, 2); // plan
    await drawer.locator('.ant-input-number input').first().fill('199');
    const dates = drawer.locator('.ant-picker input');
    await dates.nth(0).click();
    await dates.nth(0).fill('2026-01-01 00:00:00');
    await page.keyboard.press('Enter');
    await dates.nth(1).click();
    await dates.nth(1).fill('2026-12-31 23:59:59');
    await page.keyboard.press('Enter');
    await h.shot(page, 'text-plan-order-add');
    await drawer.getByTestId('form-submit').click();
    await page.locator('.ant-message-success', { hasText: '已保存' }).waitFor();
    const row = rows('intelligent_text.plan_order_list').first();
    await row.filter({ hasText: '199' }).waitFor();
    // four row actions: the log is in the "more" menu
    await row.locator('[data-action="__more"]').click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [data-action="log"]').click();
    const modal = page.locator('.ant-modal').last();
    await modal.getByText('创建', { exact: true }).waitFor();
    await closeModal(page);
  });

  it('creates a policy and deletes it again', async () => {
    await open('/intelligent_text/learn/policyManagement', 'intelligent_text.policy_list');
    await schema('intelligent_text.policy_list').locator('[data-action="add"]').click();
    const modal = page.locator('.ant-modal').last();
    await modal.getByText('新增知识').waitFor();
    await pickFirst(modal, 0); // shop
    const title = `E2E policy ${Date.now()}`;
    await modal.locator('input.ant-input').first().fill(title);
    await modal.locator('textarea').first().fill('Returns are accepted within 30 days.');
    await modal.getByTestId('form-submit').click();
    await page.locator('.ant-message-success', { hasText: '已保存' }).waitFor();
    await page.goto(`/intelligent_text/learn/policyManagement?keyword=${encodeURIComponent('E2E policy')}`);
    const row = rows('intelligent_text.policy_list').filter({ hasText: title });
    await row.waitFor();
    assert.match(await row.innerText(), /运营（手动）/); // source type 1 by default
    await row.locator('[data-action="delete"]').click();
    await ok().click();
    await page.locator('.ant-message-success', { hasText: '已删除' }).waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it('exports the filtered materials as CSV', async () => {
    await open('/intelligent_text/learn/material?channel=email', 'intelligent_text.material_list');
    const download = page.waitForEvent('download');
    await schema('intelligent_text.material_list').locator('[data-action="exportCsv"]').click();
    const file = await download;
    assert.match(file.suggestedFilename(), /\.csv$/);
    const saved = path.join(mkdtempSync(path.join(tmpdir(), 'bo-export-')), file.suggestedFilename());
    await file.saveAs(saved);
    const text = readFileSync(saved, 'utf8');
    // localized column titles and enum labels (渠道, 邮件 / 聊天), not field names and codes
    assert.match(text.split(/\r?\n/)[0], /渠道/);
    assert.ok(text.includes(',邮件,'), 'email rows exported');
    assert.ok(!text.includes(',聊天,') && !text.includes(',chat,'), 'the channel filter of the page is applied to the export');
  });

  it('shows a customer with their shops and mailboxes', async () => {
    await open('/intelligent_text/shop/customerList', 'intelligent_text.customer_tabs', 'intelligent_text.customer_list');
    await rows('intelligent_text.customer_list').first().locator('[data-action="shops"]').click();
    const drawer = page.locator('.ant-drawer').last();
    await drawer.getByText('客户店铺与邮箱').waitFor();
    await drawer.getByText('@').first().waitFor();
    await h.shot(page, 'text-customer-info');
    await closeModal(page);
  });
});

describe('end to end', () => {
  it('creates a notification (shop type required) and pushes it', async () => {
    await open('/intelligent_text/merchantNotice/noticeList', 'intelligent_text.notice_list');
    await schema('intelligent_text.notice_list').locator('[data-action="add"]').click();
    const modal = page.locator('.ant-modal').last();
    await modal.getByText('新建通知').first().waitFor();
    const title = `E2E notice ${Date.now()}`;
    await modal.locator('input').first().fill(title);
    await modal.locator('textarea').first().fill('Hello merchants, this is an end-to-end test.');
    await modal.getByTestId('form-submit').click();
    await modal.getByText('请勾选店铺类型').first().waitFor();
    await h.shot(page, 'text-notice-rule');
    await modal.getByText('Shopify', { exact: true }).click();
    await modal.getByTestId('form-submit').click();
    await success().waitFor();
    const row = rows('intelligent_text.notice_list').filter({ hasText: title });
    await row.waitFor();
    // (push may sit in the row's "more" menu: the list has four row actions)
    await rowAction(page, row, 'push');
    await ok().click();
    // the push is a job (notification.push): the reply says it started, the row turns pushed by itself
    await page.locator('.ant-message-success', { hasText: '已开始推送' }).waitFor();
    await row.getByText('已推送', { exact: true }).waitFor({ timeout: 60_000 });
    const cells = await row.locator('td').allInnerTexts();
    const qty = Number(cells[4]);
    assert.ok(qty > 0, `push quantity: ${cells.join(' | ')}`);
    await h.shot(page, 'text-notice-pushed');
  });

  it('uploads a document and sees it learned, then views its content', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bo-doc-'));
    const file = path.join(dir, `e2e-faq-${Date.now()}.md`);
    writeFileSync(file, '# Returns\n\nOrders can be returned within 30 days of delivery.\n');
    await open('/intelligent_text/learn/docManage', 'intelligent_text.doc_list');
    const chooser = page.waitForEvent('filechooser');
    await schema('intelligent_text.doc_list').locator('[data-action="upload"]').click();
    await (await chooser).setFiles(file);
    await success().waitFor();
    const row = rows('intelligent_text.doc_list').filter({ hasText: path.basename(file) });
    await row.waitFor();
    // learning is a job: wait for its state (a deadline, not a count of tries: a loaded machine learns slower)
    for (const end = Date.now() + 60_000; Date.now() < end && !(await row.innerText()).includes('已学习'); ) {
      await page.waitForTimeout(500);
      await schema('intelligent_text.doc_list').locator('[data-action="refresh"]').click();
    }
    assert.match(await row.innerText(), /已学习/);
    await row.locator('[data-action="content"]').click();
    const drawer = page.locator('.ant-drawer').last();
    await drawer.getByText('Orders can be returned within 30 days').waitFor();
    await h.shot(page, 'text-doc-content');
    await closeModal(page);
  });

  it('no uncaught page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
