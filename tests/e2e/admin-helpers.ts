/** Shared steps for the admin_center browser tests (schema pages drawn by the runtime). */
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

/** GET `/api/admin/<path>` with the page's session; asserts code 10000 and returns `data`. */
export async function api<T>(page: Page, path: string, params?: Record<string, string | number>): Promise<T> {
  // the console sends the `sid` cookie's value as `admin-token` (the HttpOnly guard cookie rides along)
  const sid = (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
  const res = await page.request.get(`/api/admin/${path}`, { params, headers: { 'admin-token': sid } });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  assert.equal(body.code, 10000, `${path}: ${body.code} ${body.msg}`);
  return body.data;
}

/** A POST to the admin API as the signed-in page's user; returns `data`, fails unless code 10000. */
export async function apiPost<T>(page: Page, path: string, data: Record<string, unknown>): Promise<T> {
  const sid = (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
  const res = await page.request.post(`/api/admin/${path}`, { data, headers: { 'admin-token': sid } });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  assert.equal(body.code, 10000, `${path}: ${body.code} ${body.msg}`);
  return body.data;
}

/** Opens a console route and waits for the shell's page loader to finish. */
export async function openAdminPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.getByTestId('side-menu').waitFor();
  await page.getByTestId('page-loading').waitFor({ state: 'detached', timeout: 20_000 });
}

/** Waits for a schema list table to be drawn and its data loaded. */
export async function waitList(page: Page, schemaId: string): Promise<Locator> {
  const table = page.getByTestId(`list-${schemaId}`);
  await table.waitFor({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  await table.locator('.ant-spin-spinning, .ant-spin-blur').first().waitFor({ state: 'detached', timeout: 20_000 });
  // the first answer has been drawn: rows, or the empty placeholder (the spinner may not have
  // shown yet when the line above looked)
  await table.locator('.ant-table-tbody tr.ant-table-row, .ant-table-tbody .ant-empty').first().waitFor({ timeout: 20_000 });
  await settle(page);
  return table;
}

/** Waits for finite CSS animations and transitions (e.g. the table's fade-in after loading) to end. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** The table row (any list on the page) containing the text. */
export const listRow = (page: Page, text: string): Locator => page.locator('tr.ant-table-row').filter({ hasText: text });

/** A Formily form item by its label text. */
export function formItem(scope: Page | Locator, label: string): Locator {
  // a `has` locator is matched inside each item, so it must start from the page, not the scope
  const page = 'mainFrame' in scope ? scope : scope.page();
  return scope.locator('.ant-formily-item').filter({ has: page.locator('.ant-formily-item-label-content label').getByText(label, { exact: true }) });
}

/** A permission-tree node by its title. */
export const treeNode = (page: Page, title: string): Locator =>
  page.locator('.ant-tree-treenode').filter({ has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });

/** The open confirm dialog (env.confirm). */
export const confirmDialog = (page: Page): Locator => page.locator('.ant-modal-confirm:visible');
