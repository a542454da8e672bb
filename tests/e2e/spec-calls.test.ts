/**
 * Spec section 7 calls the console makes (issue 14), watched in Chromium with page.on('request'):
 * sign-in starts `GET /api/common/config` and `GET shop-list?env=all` once each; pages with shop
 * pickers opened afterwards (client-side navigation) read the kept list instead of asking again;
 * the Douyin product form checks the product id (`check-product-exists`) and refuses one that
 * exists with the message, sending no create; the collapsed side menu draws one distinct icon
 * per entry; brand, title and footer name the same product; the plan form takes its options from
 * `GET plan/config`; the permissions page has a flat list (`GET permission/list`) with search and
 * a role's detail page its change history (`GET audit-log/all`).
 * Run: npm run build && node --import tsx --test tests/e2e/spec-calls.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let page: Page;
const calls: string[] = [];
const pageErrors: string[] = [];

/** Requests to the API so far, as "METHOD /path?query" (origin dropped). */
const seen = (re: RegExp) => calls.filter((c) => re.test(c));

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  page.setDefaultTimeout(60_000); // other suites may share the 2 cores
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) calls.push(`${r.method()} ${u.pathname}${u.search}`);
  });
  await h.signIn(page, h.admin);
});

after(async () => {
  await page?.context().close();
  await h?.close();
});

/** Client-side navigation (no reload, so the session's kept data stays, as when a menu entry is clicked). */
async function go(path: string, schemaId: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.locator(`[data-schema-id="${schemaId}"]`).first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
}

describe('start-up calls and the shared shop list', () => {
  it('calls GET /api/common/config and shop-list?env=all once each after sign-in', async () => {
    await page.waitForFunction(() => !!document.querySelector('[data-testid="app-footer"]'));
    await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="app-footer"]')?.textContent ?? ''));
    assert.equal(seen(/^GET \/api\/common\/config/).length, 1, calls.join('\n'));
    assert.equal(seen(/^GET \/api\/admin\/shop-list\?env=all$/).length, 1, calls.join('\n'));
  });

  it('brand, page title and footer name the same product; the footer shows the version from config', async () => {
    const title = await page.title();
    const brand = (await page.locator('.console-brand').textContent())?.trim();
    const footer = (await page.getByTestId('app-footer').textContent())?.trim() ?? '';
    assert.equal(brand, title);
    assert.ok(footer.startsWith(title), `footer "${footer}" vs title "${title}"`);
    const config = (await (await fetch(`${h.baseUrl}/api/common/config`)).json()) as { data: { version: string } };
    assert.ok(footer.includes(config.data.version), footer);
  });

  it('pages with shop pickers read the kept list: no second shop-list request', async () => {
    await go('/intelligent_text/order/shopify', 'intelligent_text.order_list');
    const filter = page.locator('[data-schema-id="intelligent_text.order_list"] .ant-select').first();
    await filter.click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().waitFor();
    const labels = await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').allTextContents();
    assert.ok(labels.some((l) => /^\d+-/.test(l)), `a prod shop is labelled id-name: ${labels.slice(0, 5).join(', ')}`);
    await page.keyboard.press('Escape');
    await go('/intelligent_text/learn/productKnowledge?tab=douyin', 'intelligent_text.douyin_product_list');
    await page.locator('[data-schema-id="intelligent_text.douyin_product_list"] .ant-table-tbody tr.ant-table-row').first().waitFor();
    assert.equal(seen(/shop-list/).length, 1, seen(/shop-list/).join('\n'));
  });
});

describe('Douyin product form', () => {
  it('refuses a product id the shop has already, with the message, and sends no create', async () => {
    const existing = await page.evaluate(async () => {
      const sid = document.cookie.match(/(?:^|; )sid=([^;]+)/)?.[1] ?? '';
      const r = await fetch('/api/admin/shop/douyin-shop-policy-product/list?page=1&page_size=1', { headers: { 'admin-token': decodeURIComponent(sid) } });
      const body = (await r.json()) as { data: { list: Array<{ shop_id: number; product_id: string }> } };
      return body.data.list[0];
    });
    assert.ok(existing, 'demo data has a Douyin product');
    await page.getByRole('button', { name: /新\s*增|Add/ }).first().click();
    const dialog = page.locator('.ant-modal-content').last();
    await dialog.waitFor();
    // the shop: pick the option whose value is the product's shop (typed as its id, labels of prod shops start with it)
    await dialog.locator('.ant-select').first().click();
    const option = page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option`);
    await option.first().waitFor();
    const shopLabel = await page.evaluate(async (shopId) => {
      const sid = document.cookie.match(/(?:^|; )sid=([^;]+)/)?.[1] ?? '';
      const r = await fetch('/api/admin/shop-list?env=all', { headers: { 'admin-token': decodeURIComponent(sid) } });
      const body = (await r.json()) as { data: Array<{ id: number; label: string }> };
      return body.data.find((s) => s.id === shopId)?.label ?? '';
    }, existing.shop_id);
    await page.keyboard.type(shopLabel);
    await option.filter({ hasText: shopLabel }).first().click();
    await dialog.getByLabel(/商品 ?ID|Product ID/i).first().fill(existing.product_id);
    await dialog.getByLabel(/商品标题|Product title|Title/i).first().fill('e2e duplicate');
    const before = calls.length;
    await dialog.locator('.ant-modal-footer .ant-btn-primary').last().click();
    await dialog.getByText(existing.product_id, { exact: false }).filter({ hasText: /已有|already exists/ }).first().waitFor();
    const after = calls.slice(before);
    assert.equal(after.filter((c) => c.includes('check-product-exists')).length, 1, after.join('\n'));
    assert.equal(after.filter((c) => /douyin-shop-policy-product\/create/.test(c)).length, 0, after.join('\n'));
    await page.keyboard.press('Escape');
  });
});

describe('plan form, permissions and role history', () => {
  it('the plan form asks GET plan/config for its products, periods, currencies and statuses (one request)', async () => {
    await go('/intelligent_text/shop/plan', 'intelligent_text.plan_list');
    const before = calls.length;
    await page.getByRole('button', { name: /新\s*增|新\s*建|Add/ }).first().click();
    const dialog = page.locator('.ant-modal-content').last();
    await dialog.getByText(/智能文本|^Text$/).first().waitFor();
    await dialog.getByText(/月付|Monthly/).first().waitFor();
    const asked = calls.slice(before).filter((c) => c.includes('plan/config'));
    assert.equal(asked.length, 1, calls.slice(before).join('\n'));
    await page.keyboard.press('Escape');
  });

  it('the permissions page lists permissions flat with a keyword search (GET permission/list)', async () => {
    await go('/admin_center/authCenter/permissions?tab=flat', 'admin_center.permission.flat_list');
    const list = page.locator('[data-schema-id="admin_center.permission.flat_list"]');
    await list.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await list.getByLabel(/关键词|Keyword/).first().fill('audit_logs');
    await list.getByTestId('filter-search').click();
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-schema-id="admin_center.permission.flat_list"] .ant-table-tbody tr.ant-table-row')];
      return rows.length > 0 && rows.every((r) => r.textContent?.includes('audit_logs'));
    });
    assert.ok(seen(/^GET \/api\/admin\/permission\/list\?.*keyword=audit_logs/).length >= 1, seen(/permission\/list/).join('\n'));
  });

  it("a role's detail page shows its change history (GET audit-log/all)", async () => {
    const roleId = await page.evaluate(async () => {
      const sid = document.cookie.match(/(?:^|; )sid=([^;]+)/)?.[1] ?? '';
      const r = await fetch('/api/admin/role/list?page=1&page_size=1', { headers: { 'admin-token': decodeURIComponent(sid) } });
      return ((await r.json()) as { data: { list: Array<{ id: number }> } }).data.list[0].id;
    });
    await go(`/admin_center/authCenter/role/detail/${roleId}`, 'admin_center.role.detail');
    await page.locator('[data-schema-id="admin_center.role.audit_list"]').first().waitFor();
    assert.ok(seen(new RegExp(`^GET /api/admin/audit-log/all\\?.*resource=role.*target_id=${roleId}`)).length >= 1, seen(/audit-log/).join('\n'));
  });
});

describe('collapsed side menu', () => {
  it('shows one distinct icon (svg) per item, with the title on hover', async () => {
    // the expanded menu draws the same icons beside the titles (issue 23: they were dropped there for a bundle goal)
    const expanded = page.locator('[data-testid="side-menu"]:not(.ant-menu-inline-collapsed) > li.ant-menu-submenu');
    await expanded.first().locator('.ant-menu-submenu-title svg').first().waitFor();
    // a closed group's page icons load with the group's own set when it opens (menu-icons.tsx)
    const groups = await expanded.count();
    for (let i = 0; i < groups; i++) {
      const group = expanded.nth(i);
      if ((await group.getAttribute('class'))?.includes('ant-menu-submenu-open')) continue;
      await group.locator(':scope > .ant-menu-submenu-title').click();
      const pages = group.locator('li.ant-menu-item');
      await pages.first().locator('svg').waitFor();
      await page.waitForFunction((n) => [...document.querySelectorAll('[data-testid="side-menu"] > li.ant-menu-submenu')][n]?.querySelectorAll('li.ant-menu-item').length === [...document.querySelectorAll('[data-testid="side-menu"] > li.ant-menu-submenu')][n]?.querySelectorAll('li.ant-menu-item svg').length, i);
      break;
    }
    await page.getByTestId('collapse-toggle').click();
    const menu = page.locator('[data-testid="side-menu"].ant-menu-inline-collapsed');
    await menu.waitFor();
    const items = menu.locator(':scope > li.ant-menu-item, :scope > li.ant-menu-submenu');
    const n = await items.count();
    assert.ok(n >= 2, `collapsed menu items: ${n}`);
    // the icons are a chunk of their own, loaded with the layout
    await items.nth(n - 1).locator('svg').first().waitFor();
    const icons: string[] = [];
    for (let i = 0; i < n; i++) {
      const svg = items.nth(i).locator('svg').first();
      assert.equal(await items.nth(i).locator('svg').count() >= 1, true, `item ${i} has an svg`);
      icons.push((await svg.getAttribute('data-icon')) ?? '');
    }
    assert.equal(new Set(icons).size, icons.length, `distinct icons: ${icons.join(', ')}`);
    // hover shows the group's title (submenu popup) or the page's tooltip
    await items.first().hover();
    await page.locator('.ant-menu-submenu-popup:not(.ant-menu-submenu-hidden), .ant-tooltip:not(.ant-tooltip-hidden)').first().waitFor();
    await page.getByTestId('collapse-toggle').click();
    assert.deepEqual(pageErrors, []);
  });
});
