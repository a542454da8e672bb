/**
 * The page groups built for issue 14 (docs/modules/page-groups.md) in Chromium against the real
 * server with the demo data, as the super admin: every new route (shop profile basic and
 * advanced, sync log, sync success and fail results, templates, renewal detail) shows its
 * content — the title in the console's language, the demo record, no error panel, no unknown
 * widget — in Chinese and in English; the new modals (template, sync, policy versions, dialogue,
 * reply details) open with content; and the sync flow runs: the sync modal starts a job, the log
 * follows it live and its row opens the result page.
 * Run: npm run build && node --import tsx --test tests/e2e/page-groups.test.ts   (screenshots in /tmp/shots)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api } from './admin-helpers.js';
import { closeModal, ROOT, rowAction, startHarness, visit, type Harness } from './harness.js';
import { patternOf, ROUTE_TABLE, SPEC_ROUTES, walkRoutes } from './route-walk.js';

type Locale = 'zh-CN' | 'en-US';
const texts: Record<Locale, Record<string, unknown>> = {
  'zh-CN': JSON.parse(readFileSync(path.join(ROOT, 'src/locales/zh-CN/text.json'), 'utf8')) as Record<string, unknown>,
  'en-US': JSON.parse(readFileSync(path.join(ROOT, 'src/locales/en-US/text.json'), 'utf8')) as Record<string, unknown>,
};
type Shared = Record<'shop' | 'customer' | 'common', Record<string, string>>;
const shared: Record<Locale, Shared> = {
  'zh-CN': JSON.parse(readFileSync(path.join(ROOT, 'src/locales/zh-CN/shared.json'), 'utf8')) as Shared,
  'en-US': JSON.parse(readFileSync(path.join(ROOT, 'src/locales/en-US/shared.json'), 'utf8')) as Shared,
};
/** the text of `text.<key>` in a locale */
const tx = (locale: Locale, key: string): string => {
  let v: unknown = texts[locale];
  for (const k of key.split('.')) v = (v as Record<string, unknown>)[k];
  assert.equal(typeof v, 'string', key);
  return v as string;
};

let h: Harness;
let page: Page;
const pageErrors: string[] = [];
const ids = { shop: 0, shopName: '', planOrder: 0, syncDone: 0, syncFailed: 0 };

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  page.setDefaultTimeout(60_000); // other suites may share the 2 cores
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
  const orders = await api<{ list: Array<{ id: number; shop_id: number | null; shop_name: string | null }> }>(page, 'plan-order/list', { page_size: 50 });
  const withShop = orders.list.find((o) => o.shop_id);
  assert.ok(withShop, 'a demo plan order with a shop');
  ids.planOrder = withShop.id;
  ids.shop = Number(withShop.shop_id);
  ids.shopName = String(withShop.shop_name);
  const syncs = await api<{ list: Array<{ id: number; state: string }> }>(page, 'shop-sync/list', { page_size: 50 });
  ids.syncDone = syncs.list.find((s) => s.state === 'done')?.id ?? 0;
  ids.syncFailed = syncs.list.find((s) => s.state === 'failed')?.id ?? 0;
  assert.ok(ids.syncDone && ids.syncFailed, 'demo sync rows (done and failed)');
});

after(async () => {
  await page?.context().close();
  await h?.close();
  assert.deepEqual(pageErrors, [], 'no uncaught page errors');
});

const schema = (id: string) => page.locator(`[data-schema-id="${id}"]`).first();
const rows = (id: string) => page.locator(`[data-schema-id="${id}"] .ant-table-tbody tr.ant-table-row`);

async function noErrors(what: string): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'), undefined, { timeout: 60_000 });
  assert.equal(await page.getByTestId('schema-error-panel').count(), 0, `${what}: schema error panel`);
  assert.equal(await page.getByTestId('unknown-widget').count(), 0, `${what}: unknown widget`);
  assert.equal(await page.locator('.ant-card .ant-alert-error').count(), 0, `${what}: error alert`);
}

/**
 * Opens a route, waits for its schema, and checks the title and the expected texts are shown.
 * Another route is reached in the app (the menu's way, no page load); the same route, a page
 * already showing this schema, or one left with a modal open is loaded afresh.
 */
async function open(route: string, id: string, expect: string[], listId?: string): Promise<void> {
  const here = new URL(page.url()).pathname;
  const fresh = here === route || here === '/login' || (await schema(id).count()) > 0 || (await page.locator('.ant-modal-wrap:visible').count()) > 0;
  if (fresh) await page.goto(route);
  else await visit(page, route);
  await schema(id).waitFor({ timeout: 60_000 });
  if (listId) await rows(listId).first().waitFor({ timeout: 60_000 });
  for (const t of expect) await schema(id).getByText(t, { exact: false }).first().waitFor({ timeout: 30_000 });
  await noErrors(route);
}

async function switchTo(locale: Locale): Promise<void> {
  await page.getByTestId('lang-switch').click();
  await page.getByTestId(`lang-${locale}`).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, locale);
}

/** Clicks a row action, directly or from the row's "more" menu. */
const modal = () => page.locator('.ant-modal').last();
/** A form item of the open modal by its label. */
const field = (label: string) => modal().locator('.ant-formily-item', { hasText: label }).first();

function routeChecks(locale: Locale): void {
  it(`${locale}: shop profile basic and advanced`, async () => {
    await open(`/intelligent_text/shop/profile/basic/${ids.shop}`, 'intelligent_text.shop_profile_basic', [
      tx(locale, 'profile.basicInfo'),
      ids.shopName,
    ]);
    await h.shot(page, `page-groups-profile-basic-${locale}`);
    await open(
      `/intelligent_text/shop/profile/advanced/${ids.shop}`,
      'intelligent_text.shop_profile_advanced',
      [tx(locale, 'profile.plugin'), tx(locale, 'profile.authorization'), tx(locale, 'profile.planOrders'), tx(locale, 'profile.sessions'), ids.shopName],
      'intelligent_text.shop_profile_plan_orders',
    );
    await h.shot(page, `page-groups-profile-advanced-${locale}`);
  });

  it(`${locale}: sync log and its success and fail results`, async () => {
    await open('/intelligent_text/shop/syncLog', 'intelligent_text.shop_sync_log', [tx(locale, 'sync.logTitle')], 'intelligent_text.shop_sync_log');
    await open(`/intelligent_text/shop/syncLog/result/success/${ids.syncDone}`, 'intelligent_text.shop_sync_result_success', [
      tx(locale, 'result.successTitle'),
      tx(locale, 'result.figures'),
      locale === 'zh-CN' ? '已同步' : 'Synced',
    ]);
    await h.shot(page, `page-groups-sync-success-${locale}`);
    await open(`/intelligent_text/shop/syncLog/result/fail/${ids.syncFailed}`, 'intelligent_text.shop_sync_result_fail', [
      tx(locale, 'result.failTitle'),
      tx(locale, 'result.whatNow'),
      locale === 'zh-CN' ? '授权' : 'authoriz',
    ]);
    await h.shot(page, `page-groups-sync-fail-${locale}`);
  });

  it(`${locale}: the voice customer shops list adds and edits a shop (issue 26)`, async () => {
    const name = `Voice shop ${locale} ${Date.now()}`;
    await open('/intelligent_voice/customer/list', 'intelligent_voice.shop_list', [], 'intelligent_voice.shop_list');
    await page.locator('[data-schema-id="intelligent_voice.shop_list"] [data-action="add"]').click();
    await modal().getByText(shared[locale].shop.addTitle, { exact: true }).waitFor();
    await modal().locator('.ant-formily-item', { hasText: shared[locale].shop.name }).first().locator('input').fill(name);
    await modal().locator('.ant-formily-item', { hasText: shared[locale].shop.type }).first().locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    const row = rows('intelligent_voice.shop_list').filter({ hasText: name });
    await row.waitFor();
    await rowAction(page, row, 'edit');
    await modal().getByText(shared[locale].shop.editTitle, { exact: true }).waitFor();
    const input = modal().locator('.ant-formily-item', { hasText: shared[locale].shop.name }).first().locator('input');
    await page.waitForFunction((n) => [...document.querySelectorAll('.ant-modal input')].some((i) => (i as HTMLInputElement).value === n), name);
    await input.fill(`${name} edited`);
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await rows('intelligent_voice.shop_list').filter({ hasText: `${name} edited` }).waitFor();
    await noErrors('voice customer shops');
  });

  it(`${locale}: templates and renewal detail`, async () => {
    await open('/intelligent_text/merchantNotice/template', 'intelligent_text.reply_template_list', [tx(locale, 'template.title')], 'intelligent_text.reply_template_list');
    await open(`/intelligent_text/shop/plan_order/renew/${ids.planOrder}`, 'intelligent_text.plan_order_renew', [
      tx(locale, 'renew.title'),
      tx(locale, 'renew.order'),
      tx(locale, 'renew.previous'),
    ]);
    await h.shot(page, `page-groups-renew-${locale}`);
  });
  it(`${locale}: shop introduction modal (issue 26): writes the introduction, which shows again`, async () => {
    await open('/intelligent_text/shop/list', 'intelligent_text.shop_list', [], 'intelligent_text.shop_list');
    const row = rows('intelligent_text.shop_list').first();
    await rowAction(page, row, 'introduction');
    await modal().getByText(tx(locale, 'introduction.title'), { exact: true }).waitFor();
    await modal().getByText(tx(locale, 'introduction.mainProducts'), { exact: true }).waitFor();
    await noErrors('introduction modal');
    await h.shot(page, `page-groups-introduction-${locale}`);
    const text = `Intro ${locale} ${Date.now()}`;
    await field(tx(locale, 'introduction.introduction')).locator('textarea').fill(text);
    await field(tx(locale, 'introduction.serviceHours')).locator('input').fill('9-18');
    await modal().getByTestId('form-submit').click();
    await modal().waitFor({ state: 'hidden' });
    await rowAction(page, row, 'introduction');
    await page.waitForFunction((t) => [...document.querySelectorAll('.ant-modal textarea')].some((i) => (i as HTMLTextAreaElement).value === t), text);
    await closeModal(page);
  });

  it(`${locale}: customer config and note modals (issue 26)`, async () => {
    await open('/intelligent_text/shop/customerList', 'intelligent_text.customer_list', [], 'intelligent_text.customer_list');
    const row = rows('intelligent_text.customer_list').first();
    await rowAction(page, row, 'config');
    await modal().getByText(tx(locale, 'customerConfig.title'), { exact: true }).waitFor();
    await modal().getByText(tx(locale, 'customerConfig.tierOpt.ka'), { exact: true }).click();
    await field(tx(locale, 'customerConfig.accountManager')).locator('input').fill(`AM ${locale}`);
    await noErrors('customer config modal');
    await h.shot(page, `page-groups-customer-config-${locale}`);
    await modal().getByTestId('form-submit').click();
    await modal().waitFor({ state: 'hidden' });
    await rowAction(page, row, 'config');
    await page.waitForFunction((v) => [...document.querySelectorAll('.ant-modal input')].some((i) => (i as HTMLInputElement).value === v), `AM ${locale}`);
    await closeModal(page);

    const note = `Note ${locale} ${Date.now()}`;
    await rowAction(page, row, 'note');
    await modal().getByText(tx(locale, 'customerNote.title'), { exact: true }).waitFor();
    await field(tx(locale, 'customerNote.content')).first().locator('textarea').fill(note);
    await modal().getByTestId('form-submit').click();
    await modal().waitFor({ state: 'hidden' });
    await rowAction(page, row, 'note');
    await modal().getByText(note).waitFor();
    await modal().getByText(tx(locale, 'customerNote.author'), { exact: true }).first().waitFor();
    await noErrors('customer note modal');
    await h.shot(page, `page-groups-customer-note-${locale}`);
    await closeModal(page);
  });

  it(`${locale}: download modal (issue 26): a CSV of the ticked columns, headers in the language`, async () => {
    await open('/intelligent_text/shop/customerList', 'intelligent_text.customer_list', [], 'intelligent_text.customer_list');
    await schema('intelligent_text.customer_list').locator('[data-action="download"]').click();
    await modal().getByText(tx(locale, 'customerDownload.title'), { exact: true }).waitFor();
    await modal().getByText(tx(locale, 'customerDownload.hint')).waitFor();
    await noErrors('download modal');
    await h.shot(page, `page-groups-download-${locale}`);
    const [download] = await Promise.all([page.waitForEvent('download'), modal().getByTestId('form-submit').click()]);
    assert.match(download.suggestedFilename(), /^customers-\d{8}T\d{6}\.csv$/);
    const body = readFileSync(String(await download.path()), 'utf8');
    const header = body.replace(/^\uFEFF/, '').split('\r\n')[0];
    assert.equal(header, locale === 'zh-CN' ? 'ID,客户名称,邮箱,电话,国家 / 地区,状态,店铺数,创建时间' : 'ID,Customer name,Email,Phone,Country,Status,Shops,Created');
    assert.ok(body.split('\r\n').length > 2, 'customer rows');
    await modal().waitFor({ state: 'hidden' });
  });

  it(`${locale}: the pro form (issue 26) onboards a customer with a shop and its introduction`, async () => {
    await open('/intelligent_text/shop/customerList', 'intelligent_text.customer_list', [], 'intelligent_text.customer_list');
    await schema('intelligent_text.customer_list').locator('[data-action="onboard"]').click();
    await page.waitForURL(/\/intelligent_text\/shop\/customerList\/onboard$/);
    const form = schema('intelligent_text.customer_onboard_form');
    for (const t of ['onboard.title', 'onboard.customer', 'onboard.shop', 'onboard.intro']) await form.getByText(tx(locale, t), { exact: true }).first().waitFor();
    await noErrors('pro form');
    await h.shot(page, `page-groups-pro-form-${locale}`);
    const email = `onboard-${locale.toLowerCase()}-${Date.now()}@example.com`;
    const item = (label: string) => form.locator('.ant-formily-item', { hasText: label }).first();
    await item(shared[locale].customer.name).locator('input').fill(`Onboarded ${locale}`);
    await item(tx(locale, 'onboard.shopName')).locator('input').fill(`Onboarded shop ${locale}`);
    await item(shared[locale].common.email).locator('input').fill(email);
    await item(shared[locale].common.countryCode).locator('input').fill('US');
    await item(tx(locale, 'onboard.shopType')).locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    // the introduction's details show once an introduction is written
    assert.equal(await item(tx(locale, 'introduction.serviceHours')).count(), 0);
    await item(tx(locale, 'introduction.introduction')).locator('textarea').fill('We sell tea.');
    await item(tx(locale, 'introduction.serviceHours')).waitFor();
    await form.getByTestId('form-submit').click();
    await page.waitForURL(/\/intelligent_text\/shop\/customerList$/);
    const made = await api<{ list: Array<{ id: number; shop_count: number }> }>(page, 'customer/list', { email });
    assert.equal(made.list.length, 1);
    assert.equal(made.list[0].shop_count, 1);
  });
}

describe('new routes show content in both languages', () => {
  routeChecks('zh-CN');
  it('switches to English', async () => {
    await switchTo('en-US');
  });
  routeChecks('en-US');
});

describe('new modals and the sync flow (English)', () => {
  it('template form shows a template', async () => {
    await open('/intelligent_text/merchantNotice/template', 'intelligent_text.reply_template_list', [], 'intelligent_text.reply_template_list');
    await rowAction(page, rows('intelligent_text.reply_template_list').first(), 'view');
    await modal().getByText(tx('en-US', 'template.content'), { exact: true }).waitFor();
    await modal().locator('.ant-formily-item').nth(3).waitFor();
    await noErrors('template modal');
    await closeModal(page);
  });

  it('policy versions modal lists the current version', async () => {
    await open('/intelligent_text/learn/policyManagement', 'intelligent_text.policy_list', [], 'intelligent_text.policy_list');
    await rowAction(page, rows('intelligent_text.policy_list').first(), 'versions');
    await modal().getByText(tx('en-US', 'versions.actionOpt.current'), { exact: true }).waitFor();
    await modal().locator('.bo-json').first().waitFor();
    await noErrors('versions modal');
    await h.shot(page, 'page-groups-versions');
    await closeModal(page);
  });

  it('feedback row opens the dialogue and the reply details', async () => {
    await open('/intelligent_text/session/feedback', 'intelligent_text.session.feedback_list', [], 'intelligent_text.session.feedback_list');
    const row = rows('intelligent_text.session.feedback_list').first();
    await rowAction(page, row, 'dialogue');
    await modal().locator('.bo-transcript [data-role="customer"]').first().waitFor();
    await modal().locator('.bo-transcript [data-role="ai"]').first().waitFor();
    await noErrors('dialogue modal');
    await h.shot(page, 'page-groups-dialogue');
    await closeModal(page);
    await rowAction(page, row, 'respondExtra');
    await modal().getByText(tx('en-US', 'respondExtra.totalTokens'), { exact: true }).waitFor();
    await modal().getByText(tx('en-US', 'respondExtra.estimated')).waitFor();
    await modal().getByText(tx('en-US', 'respondExtra.policy'), { exact: true }).waitFor();
    await noErrors('reply details modal');
    await h.shot(page, 'page-groups-respond-extra');
    await closeModal(page);
  });

  it('sync flow: the modal starts a sync, the log follows it, its row opens the result page', async () => {
    const before = await api<{ total: number }>(page, 'shop-sync/list', { page_size: 1 });
    await open('/intelligent_text/shop/syncLog', 'intelligent_text.shop_sync_log', [], 'intelligent_text.shop_sync_log');
    await schema('intelligent_text.shop_sync_log').locator('[data-action="sync"]').first().click();
    await modal().getByText(tx('en-US', 'sync.hint')).waitFor();
    await modal().locator('.ant-select').first().click();
    await page.keyboard.type(ids.shopName.slice(0, 12));
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().waitFor();
    await page.keyboard.press('Enter');
    await modal().getByTestId('form-submit').click();
    // the form closes (the start was accepted) and goes to the log (already the page here)
    await modal().waitFor({ state: 'hidden', timeout: 30_000 });
    await page.waitForURL(/\/intelligent_text\/shop\/syncLog$/);
    // the new row finishes (done or failed, by the shop's authorization) while the list refreshes itself
    const newest = rows('intelligent_text.shop_sync_log').first();
    const end = Date.now() + 60_000;
    for (;;) {
      const l = await api<{ total: number; list: Array<{ state: string }> }>(page, 'shop-sync/list', { page_size: 1 });
      if (l.total > before.total && ['done', 'failed'].includes(l.list[0].state)) break;
      assert.ok(Date.now() < end, 'the sync finishes within a minute');
      await page.waitForTimeout(500);
    }
    // read the finished row afresh rather than depend on when the live refresh last ran
    await page.reload();
    await newest.waitFor({ timeout: 60_000 });
    const result = newest.locator('[data-action="success"], [data-action="fail"]').first();
    await result.waitFor({ timeout: 30_000 });
    const kind = await result.getAttribute('data-action');
    await result.click();
    await page.waitForURL(new RegExp(`/intelligent_text/shop/syncLog/result/${kind}/\\d+$`));
    const id = kind === 'success' ? 'intelligent_text.shop_sync_result_success' : 'intelligent_text.shop_sync_result_fail';
    await schema(id).getByText(tx('en-US', kind === 'success' ? 'result.successTitle' : 'result.failTitle')).first().waitFor();
    await schema(id).getByText(ids.shopName).first().waitFor();
    await noErrors('sync result');
    await h.shot(page, 'page-groups-sync-flow');
  });
});

describe('route reachability (issue 26): every route of spec section 2 from the menu, by links and buttons', () => {
  it('the spec routes are routes of the console', () => {
    const unknown = SPEC_ROUTES.routes.filter((r) => !ROUTE_TABLE.includes(r));
    assert.deepEqual(unknown, [], 'spec routes missing from src/runtime/route-config.ts');
    for (const [alias, canonical] of Object.entries(SPEC_ROUTES.aliases)) assert.ok(ROUTE_TABLE.includes(canonical), alias);
  });

  it('walks from the menu and reaches every spec route', async () => {
    await switchTo('zh-CN');
    await page.goto('/home');
    await page.getByTestId('side-menu').waitFor();
    // ROUTE_WALK_LOG=1 prints how each route was reached
    const { reached, opened } = await walkRoutes(page, process.env.ROUTE_WALK_LOG ? (line) => console.log(line) : undefined);
    const missing = SPEC_ROUTES.routes.filter((r) => !reached.has(r));
    assert.deepEqual(missing, [], `not reachable from the menu by links or buttons (opened: ${opened.join(', ')})`);
  });

  it('opens the unprefixed call-center addresses as their pages', async () => {
    for (const [alias, canonical] of Object.entries(SPEC_ROUTES.aliases)) {
      await visit(page, alias);
      await page.locator('[data-schema-id]').first().waitFor();
      assert.equal(patternOf(canonical), canonical);
      await noErrors(alias);
    }
  });
});
