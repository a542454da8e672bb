/**
 * Notice delivery seen in Chromium (issue 24): with the demo data, a pushed notice goes to the
 * built-in sandbox receiver for shops without a channel of their own; the notice's page shows the
 * delivered count rise to every shop reached, labelled 沙箱 / Sandbox, with the deliveries and the
 * delivery log listed; a merchant's read call then moves the read count, on the page and in the
 * list — in Chinese and in English.
 * Run: npm run build && node --import tsx --test tests/e2e/notify.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let page: Page;
const pageErrors: string[] = [];
let noticeId = 0;

const sid = async () => (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
async function call<T>(method: 'GET' | 'POST', p: string, data: Record<string, unknown>): Promise<T> {
  const headers = { 'admin-token': await sid() };
  const res = method === 'GET' ? await page.request.get(`/api/admin/${p}`, { params: data as Record<string, string>, headers }) : await page.request.post(`/api/admin/${p}`, { data, headers });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  assert.equal(body.code, 10000, `${p}: ${body.msg}`);
  return body.data;
}

/** the value shown beside a label in the notice page's descriptions (bordered: label and value are neighbouring cells) */
const figure = (label: string) =>
  page.locator('.ant-descriptions-item-label').filter({ hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::*[1]');

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
  const n = await call<{ id: number }>('POST', 'notification/add', { title: 'E2E 投递通知', content: '沙箱投递演示', target_types: [1] });
  noticeId = n.id;
  await call('POST', 'notification/push', { id: noticeId });
});

after(async () => {
  await page?.context().close();
  await h?.close();
  assert.deepEqual(pageErrors, [], 'no uncaught page errors');
});

describe('the notice page shows delivered and read counts moving', () => {
  let reached = 0;

  it('zh-CN: delivered rises to every shop reached, through the sandbox, with the deliveries and the log', async () => {
    await page.goto(`/intelligent_text/merchantNotice/noticeList/detail/${noticeId}`);
    // the page refreshes itself while sends are on their way (refreshWhile push_active): wait for the state
    // (no named function inside: the page has none of the bundler's helpers)
    await page.waitForFunction(
      () => {
        const shown: Record<string, string> = {};
        for (const l of document.querySelectorAll('.ant-descriptions-item-label')) {
          shown[l.textContent?.trim() ?? ''] = l.nextElementSibling?.textContent?.trim() ?? '';
        }
        const q = Number(shown['推送数量']);
        return q > 0 && shown['已送达'] === String(q) && shown['投递中'] === '0';
      },
      undefined,
      { timeout: 180_000 },
    );
    reached = Number(await figure('已送达').innerText());
    assert.ok(reached > 0);
    assert.equal((await figure('已读数').innerText()).trim(), '0');
    assert.equal((await figure('失败').innerText()).trim(), '0');
    await figure('接收端').getByText('沙箱', { exact: true }).waitFor();
    const sends = page.locator('[data-schema-id="intelligent_text.notice_sends"] tr.ant-table-row');
    await sends.first().waitFor();
    assert.match(await sends.first().innerText(), /沙箱接收端/);
    assert.match(await sends.first().innerText(), /已送达/);
    const log = page.locator('[data-schema-id="intelligent_text.notice_attempts"] tr.ant-table-row');
    await log.first().waitFor();
    assert.match(await log.first().innerText(), /成功/);
    await h.shot(page, 'notify-detail-zh');
  });

  it("a merchant's read call moves the read count on the page and in the list", async () => {
    const d = await call<{ list: Array<{ read_token: string }> }>('GET', 'notification/delivery/list', { notification_id: noticeId, page_size: 2 });
    for (const x of d.list) {
      const res = await page.request.post('/api/common/merchant/notification/read', { data: { token: x.read_token } });
      assert.equal(((await res.json()) as { code: number }).code, 10000);
    }
    await page.reload();
    await figure('已读数').getByText('2', { exact: true }).waitFor();
    assert.equal((await figure('已送达').innerText()).trim(), String(reached));
    await page.goto('/intelligent_text/merchantNotice/noticeList');
    const row = page.locator('[data-schema-id="intelligent_text.notice_list"] tr.ant-table-row').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${noticeId}$`) }) });
    await row.waitFor();
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`(^| )${reached} ${reached} 0 2 沙箱( |$)`), text);
  });

  it('en-US: the same figures under English labels', async () => {
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-en-US').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en-US');
    await page.goto(`/intelligent_text/merchantNotice/noticeList/detail/${noticeId}`);
    await figure('Delivered').getByText(String(reached), { exact: true }).waitFor();
    await figure('Read').getByText('2', { exact: true }).waitFor();
    await figure('Receiver').getByText('Sandbox', { exact: true }).waitFor();
    await page.locator('[data-schema-id="intelligent_text.notice_sends"]').getByText('Sandbox receiver').first().waitFor();
    await h.shot(page, 'notify-detail-en');
  });
});
