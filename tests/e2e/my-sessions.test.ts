/**
 * My sessions (issue 12): the user menu opens the list of the account's live sessions; ending
 * the other ones signs the other browser out. Run: node --import tsx --test tests/e2e/my-sessions.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

describe('my sessions', () => {
  it('lists this and another browser, marks this one, and signs the other out', async () => {
    const other = await h.newPage();
    await h.signIn(other, h.admin);
    await other.waitForURL('**/home');
    const page = await h.newPage();
    await h.signIn(page, h.admin);
    await page.waitForURL('**/home');

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-my-sessions').click();
    await page.waitForURL('**/my-sessions');
    const card = page.getByTestId('my-sessions');
    await card.getByText('我的会话').waitFor();
    await card.getByText('当前会话').waitFor();
    const rows = card.locator('.ant-table-tbody tr.ant-table-row');
    assert.ok((await rows.count()) >= 2, `rows: ${await rows.count()}`);
    await h.shot(page, 'my-sessions');

    await page.getByTestId('revoke-other-sessions').click();
    await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    // (the sign-in's own success message may still be showing on a slow machine)
    await page.locator('.ant-message-success', { hasText: '已结束' }).waitFor();
    // the list reloads: only this session is left
    await rows.nth(1).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    await card.getByText('当前会话').waitFor();

    // the other browser is signed out at its next call
    await other.goto('/admin_center/authCenter/role');
    await other.waitForURL('**/login');
    await page.context().close();
    await other.context().close();
  });

  it('my info shows the account, its keys per module and its own sign-in, with no untranslated key', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.admin);
    await page.waitForURL('**/home');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-my-info').click();
    await page.waitForURL('**/my-info');
    await page.getByTestId('my-info-email').getByText(h.admin.email).waitFor();
    await page.getByTestId('my-info-modules').getByText('智能文本', { exact: false }).waitFor();
    await page.getByTestId('my-info-recent').locator('.ant-tag', { hasText: '登录' }).first().waitFor();
    const text = await page.getByTestId('my-info').innerText();
    assert.doesNotMatch(text, /shell\.profile|admin\./);
    await h.shot(page, 'my-info');
    await page.context().close();
  });
});
