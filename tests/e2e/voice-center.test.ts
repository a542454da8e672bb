/**
 * intelligent_voice call center in Chromium against the real server with the demo seed: every
 * route of the area opens as the super admin and shows demo data; the scene form shows its
 * units, the task form the latest-call-time hint, the log detail the transcript; a task is
 * paused and started from the list. Run: node --import tsx --test tests/e2e/voice-center.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';
import { api, confirmDialog, listRow, openAdminPage, waitList } from './admin-helpers.js';

let h: Harness;
let page: Page;
const R = '/intelligent_voice/callCenter';

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  await h.signIn(page, h.admin);
});
after(async () => {
  await page?.context().close();
  await h?.close();
});

const LISTS: Array<[string, string, string]> = [
  [`${R}/scene`, 'intelligent_voice.call_center.scene.list', 'Order delivery confirmation'],
  [`${R}/number`, 'intelligent_voice.call_center.number.list', '+1 415 555 0101'],
  [`${R}/task`, 'intelligent_voice.call_center.task.list', 'Black Friday delivery confirmations'],
  [`${R}/logs`, 'intelligent_voice.call_center.log.list', '双十一售后回访'],
  [`${R}/voice`, 'intelligent_voice.call_center.voice.list', 'en-US-JennyNeural'],
];

describe('call center pages (super admin)', () => {
  for (const [route, id, text] of LISTS) {
    it(`${route} lists demo rows`, async () => {
      await openAdminPage(page, route);
      const table = await waitList(page, id);
      await table.getByText(text).first().waitFor({ timeout: 15_000 });
      assert.ok((await table.locator('tr.ant-table-row').count()) > 0);
      await h.shot(page, `voice-${route.split('/').pop()}`);
    });
  }

  it('the scene form loads a scene and shows the units', async () => {
    const scenes = await api<{ list: Array<{ id: number; name: string }> }>(page, 'call-center/scene/list', { page_size: 100 });
    const scene = scenes.list.find((s) => s.name === 'Order delivery confirmation')!;
    await openAdminPage(page, `${R}/scene/edit/${scene.id}`);
    await page.locator('input[value="Order delivery confirmation"]').waitFor({ timeout: 15_000 });
    for (const unit of ['秒', '次', '分钟']) await page.locator('.ant-input-number-group-addon', { hasText: unit }).first().waitFor();
    await h.shot(page, 'voice-scene-edit');
    await openAdminPage(page, `${R}/scene/add`);
    await page.locator('.ant-input-number-group-addon', { hasText: '秒' }).first().waitFor();
  });

  it('the task form shows the latest-call-time hint', async () => {
    await openAdminPage(page, `${R}/task/add`);
    await page.getByText('任务超过最晚呼叫时间将暂停，次日继续').waitFor({ timeout: 15_000 });
    await h.shot(page, 'voice-task-add');
    const tasks = await api<{ list: Array<{ id: number; status: string }> }>(page, 'call-center/task/list', { status: 'pending', page_size: 5 });
    await openAdminPage(page, `${R}/task/edit/${tasks.list[0].id}`);
    await page.getByText('任务超过最晚呼叫时间将暂停，次日继续').waitFor({ timeout: 15_000 });
  });

  it('a task is paused and started again from the list', async () => {
    // a running task of its own, open all day (the demo tasks follow the latest-call-time rule by
    // the real clock, so whether one of them runs depends on the time of day)
    const name = 'E2E pause and start';
    const sid = (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
    const scene = (await api<{ list: Array<{ id: number }> }>(page, 'call-center/scene/list', { page_size: 1 })).list[0];
    const number = (await api<{ list: Array<{ id: number }> }>(page, 'call-center/number/list', { status: 1, page_size: 1 })).list[0];
    const created = await page.request.post('/api/admin/call-center/task/create', {
      headers: { 'admin-token': sid },
      data: { name, scene_id: scene.id, number_ids: [number.id], mode: 'immediate', window_start: '00:00', latest_call_time: '23:59' },
    });
    assert.equal(((await created.json()) as { code: number }).code, 10000);
    await openAdminPage(page, `${R}/task`);
    const table = await waitList(page, 'intelligent_voice.call_center.task.list');
    const row = listRow(page, name);
    await row.getByRole('button', { name: '暂停' }).click();
    await confirmDialog(page).locator('.ant-btn-primary').click();
    await row.getByText('已暂停').waitFor({ timeout: 15_000 });
    const t = (await api<{ list: Array<{ name: string; status: string; pause_reason: string }> }>(page, 'call-center/task/list', { keyword: 'E2E pause' })).list[0];
    assert.equal(t.status, 'pausing');
    assert.equal(t.pause_reason, 'manual');
    await row.getByRole('button', { name: '开始' }).click();
    await confirmDialog(page).locator('.ant-btn-primary').click();
    await table.locator('tr.ant-table-row').filter({ hasText: name }).getByRole('button', { name: '暂停' }).waitFor({ timeout: 15_000 });
  });

  it('the call log detail shows the transcript', async () => {
    const logs = await api<{ list: Array<{ id: number; result: number }> }>(page, 'call-center/log/list', { result: 1, page_size: 1 });
    await openAdminPage(page, `${R}/logs/detail/${logs.list[0].id}`);
    const bubbles = page.locator('.bo-transcript [data-role]');
    await bubbles.first().waitFor({ timeout: 15_000 });
    assert.ok((await bubbles.count()) >= 3);
    assert.ok((await page.locator('.bo-transcript [data-role="customer"]').count()) >= 1);
    await h.shot(page, 'voice-log-detail');
  });

  it('the IVR page shows the menu and its edit form the JSON', async () => {
    await openAdminPage(page, `${R}/ivr`);
    await page.getByText('Orders / 订单').first().waitFor({ timeout: 15_000 });
    await h.shot(page, 'voice-ivr');
    await openAdminPage(page, `${R}/ivr/edit`);
    await page.locator('textarea').first().waitFor();
    // the form draws before its load call answers: wait for the loaded menu to fill the field
    await page
      .waitForFunction(() => document.querySelector('textarea')?.value.includes('"timeout_seconds": 8'), null, { timeout: 15_000 })
      .catch(() => undefined);
    assert.match(await page.locator('textarea').first().inputValue(), /"timeout_seconds": 8/);
    await h.shot(page, 'voice-ivr-edit');
  });

  it('the voice fallback form loads the configuration', async () => {
    await openAdminPage(page, '/intelligent_voice/configCenter/fallback');
    await page.locator('input[value="+1 415 555 0100"]').waitFor({ timeout: 15_000 });
    await page.locator('.ant-input-number-group-addon', { hasText: '次' }).first().waitFor();
    await h.shot(page, 'voice-fallback');
  });

  it('the voice form loads a voice', async () => {
    const voices = await api<{ list: Array<{ id: number; identifier: string }> }>(page, 'call-center/voice/list', { keyword: 'Jenny' });
    await openAdminPage(page, `${R}/voice/edit/${voices.list[0].id}`);
    await page.locator('input[value="en-US-JennyNeural"]').waitFor({ timeout: 15_000 });
  });
});
