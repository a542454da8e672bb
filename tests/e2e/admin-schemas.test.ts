/**
 * admin_center on schemas, in Chromium against the real server: role create / edit / detail /
 * delete with the permission tree, account create / edit / reset password / delete in modals
 * (and sign-in with the reset password), a broken schema's error panel while the menu still
 * works, audit-log filters with the before / after diff, and the dev-mode schema inspector.
 * Every step is checked against the server API too. Run: node --import tsx --test tests/e2e/admin-schemas.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';
import { api, confirmDialog, formItem, listRow, openAdminPage, settle, treeNode, waitList } from './admin-helpers.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

interface PermNode {
  id: number;
  permission_name: string;
  children_recursive?: PermNode[];
}
interface Role {
  id: number;
  name: string;
  is_super_admin: boolean;
  permission_ids: number[];
}

/** Leaves of the permission tree in display order, with their ancestor ids. */
function leaves(nodes: PermNode[], up: number[] = [], out: Array<{ node: PermNode; up: number[] }> = []) {
  for (const n of nodes) {
    const kids = n.children_recursive ?? [];
    if (kids.length) leaves(kids, [...up, n.id], out);
    else out.push({ node: n, up });
  }
  return out;
}

describe('admin_center schema pages (super admin)', () => {
  let page: Page;
  const stamp = Date.now().toString(36);
  let roleId = 0;
  const roleName = `e2e-role-${stamp}`;
  const roleRenamed = `e2e-role-${stamp}-renamed`;
  /** permission ids the role edit removed and added */
  const changed = { removed: 0, added: 0 };

  before(async () => {
    page = await h.newPage();
    await h.signIn(page, h.admin);
  });
  after(async () => {
    await page.context().close();
  });

  it('creates, edits, shows and deletes a role through the schema pages', async () => {
    const tree = await api<PermNode[]>(page, 'permission/tree');
    const all = leaves(tree);
    const unique = all.filter((l) => all.filter((x) => x.node.permission_name === l.node.permission_name).length === 1);
    assert.ok(unique.length >= 3, 'the permission tree has leaves to pick');
    const [a, b, c] = unique;

    await openAdminPage(page, '/admin_center/authCenter/role');
    await waitList(page, 'admin_center.role.list');
    await h.shot(page, 'role-list');
    await page.locator('[data-action="add"]').click();
    await page.waitForURL('**/admin_center/authCenter/role/add');
    await page.locator('.ant-tree').waitFor();
    // empty name: the required message
    await page.getByTestId('form-submit').click();
    await formItem(page, '角色名称').locator('.ant-formily-item-error-help').waitFor();
    await formItem(page, '角色名称').locator('input').fill(roleName);
    await treeNode(page, a.node.permission_name).locator('.ant-tree-checkbox').click();
    await treeNode(page, b.node.permission_name).locator('.ant-tree-checkbox').click();
    await h.shot(page, 'role-add');
    await page.getByTestId('form-submit').click();
    await page.waitForURL('**/admin_center/authCenter/role');
    await waitList(page, 'admin_center.role.list');
    await listRow(page, roleName).waitFor();

    const created = (await api<{ list: Role[] }>(page, 'role/list', { name: roleName })).list;
    assert.equal(created.length, 1);
    roleId = created[0].id;
    let role = await api<Role>(page, 'role/detail', { id: roleId });
    for (const id of [a.node.id, b.node.id, ...a.up, ...b.up]) assert.ok(role.permission_ids.includes(id), `role holds ${id}`);
    assert.ok(!role.permission_ids.includes(c.node.id));

    // edit: rename, drop a, add c
    await listRow(page, roleName).locator('[data-action="edit"]').click();
    await page.waitForURL(`**/admin_center/authCenter/role/edit/${roleId}`);
    const name = formItem(page, '角色名称').locator('input');
    await page.waitForFunction((v) => (document.querySelector('.ant-formily-item input') as HTMLInputElement | null)?.value === v, roleName);
    await treeNode(page, a.node.permission_name).locator('.ant-tree-checkbox-checked').waitFor();
    await name.fill(roleRenamed);
    await treeNode(page, a.node.permission_name).locator('.ant-tree-checkbox').click();
    await treeNode(page, c.node.permission_name).locator('.ant-tree-checkbox').click();
    await h.shot(page, 'role-edit');
    await page.getByTestId('form-submit').click();
    await page.waitForURL('**/admin_center/authCenter/role');
    await waitList(page, 'admin_center.role.list');
    await listRow(page, roleRenamed).waitFor();
    role = await api<Role>(page, 'role/detail', { id: roleId });
    assert.equal(role.name, roleRenamed);
    assert.ok(!role.permission_ids.includes(a.node.id), 'a removed');
    assert.ok(role.permission_ids.includes(b.node.id) && role.permission_ids.includes(c.node.id), 'b kept, c added');
    Object.assign(changed, { removed: a.node.id, added: c.node.id });

    // detail page shows the name and the checked permissions
    await listRow(page, roleRenamed).locator('[data-action="detail"]').click();
    await page.waitForURL(`**/admin_center/authCenter/role/detail/${roleId}`);
    await page.locator('.ant-descriptions').getByText(roleRenamed, { exact: true }).waitFor();
    await page.locator('.ant-tree').waitFor();
    const checked = await page.locator('.ant-tree-treenode-checkbox-checked .ant-tree-title').allInnerTexts();
    assert.ok(checked.includes(b.node.permission_name) && checked.includes(c.node.permission_name), `checked: ${checked.join(', ')}`);
    assert.ok(!checked.includes(a.node.permission_name));
    await h.shot(page, 'role-detail');

    // delete with confirm
    await openAdminPage(page, '/admin_center/authCenter/role');
    await waitList(page, 'admin_center.role.list');
    await listRow(page, roleRenamed).locator('[data-action="delete"]').click();
    await confirmDialog(page).locator('.ant-btn-primary').click();
    await listRow(page, roleRenamed).waitFor({ state: 'detached' });
    assert.equal((await api<{ list: Role[] }>(page, 'role/list', { name: roleName })).list.length, 0);
  });

  it('creates, edits, resets the password of and deletes an account in modals', async () => {
    const email = `e2e-${stamp}@example.com`;
    const roles = await api<Role[]>(page, 'role/all');
    const role = roles.find((r) => !r.is_super_admin);
    assert.ok(role, 'a non-super role exists');

    await openAdminPage(page, '/admin_center/authCenter/account');
    await waitList(page, 'admin_center.account.list');
    await h.shot(page, 'account-list');
    await page.locator('[data-action="add"]').click();
    const modal = page.locator('.ant-modal').filter({ hasText: '新增账号' });
    await modal.waitFor();
    // the fields drawn and the modal's opening animation over before the first click on submit
    await formItem(modal, '邮箱').locator('input').waitFor();
    await settle(page);
    // empty fields: required messages; invalid email and short password: the schema's messages
    await modal.getByTestId('form-submit').click();
    await formItem(modal, '邮箱').getByText('该字段是必填字段').waitFor();
    await formItem(modal, '姓名').getByText('该字段是必填字段').waitFor();
    await formItem(modal, '密码').getByText('该字段是必填字段').waitFor();
    await formItem(modal, '邮箱').locator('input').fill('not-an-email');
    await formItem(modal, '密码').locator('input').fill('short');
    await modal.getByTestId('form-submit').click();
    await formItem(modal, '邮箱').getByText('请输入有效的邮箱地址').waitFor();
    await formItem(modal, '密码').getByText('密码 12 至 200 位（不能是常见密码，不能包含邮箱）').waitFor();
    await settle(page);
    await h.shot(page, 'account-add-errors');

    await formItem(modal, '邮箱').locator('input').fill(email);
    await formItem(modal, '姓名').locator('input').fill('E2E Person');
    await formItem(modal, '密码').locator('input').fill('first-password-1');
    await formItem(modal, '角色').locator('.ant-select-selector').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: role.name }).click();
    await page.keyboard.press('Escape');
    await formItem(modal, '状态').getByText('禁用').click();
    await h.shot(page, 'account-add');
    await modal.getByTestId('form-submit').click();
    await modal.waitFor({ state: 'hidden' });
    await listRow(page, email).waitFor();

    type Acc = { id: number; email: string; name: string; status: number; role_ids?: number[]; roles?: unknown };
    let acc = (await api<{ list: Acc[] }>(page, 'account/list', { keyword: email })).list[0];
    assert.equal(acc.name, 'E2E Person');
    assert.equal(acc.status, 0);
    assert.ok(JSON.stringify(acc).includes(role.name) || acc.role_ids?.includes(role.id), `roles: ${JSON.stringify(acc)}`);

    // edit in the modal: name and status
    await listRow(page, email).locator('[data-action="edit"]').click();
    const edit = page.locator('.ant-modal').filter({ hasText: '编辑账号' });
    await edit.waitFor();
    assert.equal(await formItem(edit, '密码').count(), 0, 'no password field when editing');
    await formItem(edit, '姓名').locator('input').fill('E2E Person Renamed');
    await formItem(edit, '状态').getByText('启用').click();
    await edit.getByTestId('form-submit').click();
    await edit.waitFor({ state: 'hidden' });
    await listRow(page, 'E2E Person Renamed').waitFor();
    acc = (await api<{ list: Acc[] }>(page, 'account/list', { keyword: email })).list[0];
    assert.equal(acc.name, 'E2E Person Renamed');
    assert.equal(acc.status, 1);

    // reset password: the generated password is shown in a dialog as copyable text
    await listRow(page, email).locator('[data-action="resetPassword"]').click();
    const reset = page.locator('.ant-modal').filter({ hasText: '重置密码' });
    await reset.getByText(email).waitFor();
    await reset.getByTestId('form-submit').click();
    const shown = page.getByTestId('form-result');
    await shown.waitFor();
    const password = (await shown.getByTestId('form-result-copy').innerText()).trim();
    assert.match(password, /^\S{10,}$/, `generated password: ${password}`);
    assert.equal(await shown.locator('.ant-typography-copy').count(), 1, 'a copy button');
    await settle(page);
    await h.shot(page, 'account-reset-password');
    await shown.locator('.ant-modal-footer .ant-btn-primary').click();
    await shown.waitFor({ state: 'hidden' });

    // the new password works in a fresh context
    const other = await h.newPage();
    await h.signIn(other, { email, password });
    assert.doesNotMatch(new URL(other.url()).pathname, /^\/login/);
    await other.context().close();

    // delete with confirm
    await listRow(page, email).locator('[data-action="delete"]').click();
    await confirmDialog(page).locator('.ant-btn-primary').click();
    await listRow(page, email).waitFor({ state: 'detached' });
    assert.equal((await api<{ list: Acc[] }>(page, 'account/list', { keyword: email })).list.length, 0);
  });

  it('filters the audit log by action and time range and shows the before / after diff of a role update', async () => {
    await openAdminPage(page, '/admin_center/authCenter/auditLogs');
    await waitList(page, 'admin_center.audit_log.list');
    await formItem(page, '操作').locator('input').fill('update');
    await formItem(page, '资源').locator('input').fill('role');
    const fmt = (d: Date) => {
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    };
    const from = new Date(Date.now() - 3600_000);
    const to = new Date(Date.now() + 3600_000);
    const range = formItem(page, '时间');
    const [start, end] = [range.locator('input').nth(0), range.locator('input').nth(1)];
    await start.click();
    await start.fill(fmt(from));
    await start.press('Enter');
    await end.fill(fmt(to));
    await end.press('Enter');
    await page.locator('.ant-picker-dropdown:visible').waitFor({ state: 'hidden' }).catch(() => undefined);
    const request = page.waitForRequest((r) => r.url().includes('audit-log/list') && r.url().includes('start_time'));
    await page.getByTestId('filter-search').click();
    const url = new URL((await request).url());
    assert.equal(url.searchParams.get('action'), 'update');
    assert.ok(url.searchParams.get('end_time'), 'end_time sent');
    await waitList(page, 'admin_center.audit_log.list');
    const row = listRow(page, roleRenamed).first();
    await row.waitFor();
    const actions = await page.locator(`[data-testid="list-admin_center.audit_log.list"] tbody tr.ant-table-row td:nth-child(4)`).allInnerTexts();
    assert.ok(actions.length > 0 && actions.every((a) => a.trim() === 'update'), `actions: ${actions.join(',')}`);
    // the diff: name before → after
    const diff = row.locator('.ant-table-row').filter({ hasText: 'name' }).first();
    assert.equal((await diff.locator('del').innerText()).trim(), roleName);
    assert.equal((await diff.locator('ins').innerText()).trim(), roleRenamed);
    // the permission ids as a set: removed before, added after
    const ids = row.locator('.ant-table-row').filter({ hasText: 'permission_ids' }).first();
    assert.ok((await ids.locator('del').innerText()).split(', ').includes(String(changed.removed)), 'removed id shown');
    assert.ok((await ids.locator('ins').innerText()).split(', ').includes(String(changed.added)), 'added id shown');
    await h.shot(page, 'audit-logs');
    const q = new URL(page.url());
    assert.equal(q.searchParams.get('action'), 'update', 'filters synced to the URL');
  });

  it('shows the error panel for a broken schema while the menu still works', async () => {
    const p = await h.newPage();
    await h.signIn(p, h.admin);
    await p.route('**/api/admin/schema/detail?*', async (route) => {
      if (!route.request().url().includes('admin_center.audit_log.list')) return route.continue();
      const res = await route.fetch();
      const body = (await res.json()) as { data: { schema: { columns: Array<Record<string, unknown>> }; checked?: string } };
      delete body.data.schema.columns[2].key;
      // as from a server of another build: no fingerprint of this client's check, so it checks itself
      delete body.data.checked;
      await route.fulfill({ response: res, json: body });
    });
    await openAdminPage(p, '/admin_center/authCenter/auditLogs');
    const panel = p.getByTestId('schema-error-panel');
    await panel.waitFor();
    const text = await panel.innerText();
    assert.match(text, /admin_center\.audit_log\.list/);
    assert.match(text, /\/columns\/2/);
    assert.match(text, /key/);
    await h.shot(p, 'broken-schema');
    await p.getByTestId('menu-item-/admin_center/authCenter/role').click();
    await p.waitForURL('**/admin_center/authCenter/role');
    await waitList(p, 'admin_center.role.list');
    assert.equal(await p.getByTestId('schema-error-panel').count(), 0);
    await p.context().close();
  });

  it('shows the schema inspector with id and version in dev mode', async () => {
    const p = await h.newPage();
    await h.signIn(p, h.admin);
    await p.goto('/admin_center/authCenter/role?dev=1');
    await waitList(p, 'admin_center.role.list');
    const button = p.getByTestId('schema-inspector');
    await button.waitFor();
    assert.match(await button.innerText(), /admin_center\.role\.list v\d+/);
    await button.click();
    const drawer = p.locator('.ant-drawer-content').filter({ hasText: 'schemaVersion' });
    await drawer.waitFor();
    assert.match(await drawer.innerText(), /admin_center\.role\.list/);
    await settle(p);
    await h.shot(p, 'dev-inspector');
    await p.context().close();
  });

  it('shows the admin pages in English with no raw i18n keys', async () => {
    const p = await h.newPage();
    await h.signIn(p, h.admin);
    await p.goto('/admin_center/home');
    await p.getByTestId('lang-switch').click();
    await p.getByTestId('lang-en-US').click();
    for (const [path, id, shot] of [
      ['/admin_center/authCenter/permissions', 'admin_center.permission.list', 'en-permissions'],
      ['/admin_center/authCenter/role', 'admin_center.role.list', 'en-roles'],
      ['/admin_center/authCenter/account', 'admin_center.account.list', 'en-accounts'],
      ['/admin_center/authCenter/auditLogs', 'admin_center.audit_log.list', 'en-audit-logs'],
    ] as const) {
      await openAdminPage(p, path);
      await waitList(p, id);
      await h.shot(p, shot);
      const text = await p.locator('.ant-layout-content').innerText();
      assert.doesNotMatch(text, /\b(admin|runtime|common|shell)\.[a-z]+\.[A-Za-z]+/, `raw key on ${path}`);
      // labels (not data): card title, filters, table header, buttons
      const labels = (await p.locator('.ant-card-head, [data-testid="list-filters"], thead, button').allInnerTexts()).join(' ');
      assert.doesNotMatch(labels, /[\u4e00-\u9fff]/, `Chinese label left on ${path}: ${labels}`);
    }
    await p.context().close();
  });
});
