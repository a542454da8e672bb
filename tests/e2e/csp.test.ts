/**
 * The console under its Content-Security-Policy (no 'unsafe-eval'), in Chromium against the
 * real server: the header is served, the policy is enforced (eval throws), and every
 * admin_center page opens and takes one interaction with no CSP violation and no console error.
 * Run: node --import tsx --test tests/e2e/csp.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';
import { api, confirmDialog, formItem, listRow, openAdminPage, waitList } from './admin-helpers.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

describe('Content-Security-Policy', () => {
  let page: Page;
  const consoleErrors: string[] = [];
  const violations = () => page.evaluate(() => window.__cspViolations ?? []);

  before(async () => {
    page = await h.newPage();
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
      });
    });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
    await h.signIn(page, h.admin);
  });
  after(async () => {
    await page.context().close();
  });

  it('serves the page with a CSP that forbids unsafe-eval', async () => {
    const res = await page.goto('/admin_center/authCenter/role');
    const csp = res?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-eval/);
    assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
  });

  const pages: Array<{ name: string; open(p: Page): Promise<void> }> = [
    {
      name: 'permissions: tree list, open and cancel the add modal',
      async open(p) {
        await openAdminPage(p, '/admin_center/authCenter/permissions');
        await waitList(p, 'admin_center.permission.list');
        await p.locator('[data-action="add"]').first().click();
        const modal = p.locator('.ant-modal').filter({ hasText: '新增权限' });
        await modal.waitFor();
        // the x-reactions expression hides the route for buttons (type 3)
        await formItem(modal, '前端路由').waitFor();
        await formItem(modal, '类型').getByText('按钮').click();
        await formItem(modal, '前端路由').waitFor({ state: 'detached' });
        await h.shot(p, 'csp-permission-add');
        await modal.locator('.ant-modal-close').click();
        await modal.waitFor({ state: 'hidden' });
      },
    },
    {
      name: 'role list: filter by name',
      async open(p) {
        await openAdminPage(p, '/admin_center/authCenter/role');
        await waitList(p, 'admin_center.role.list');
        await formItem(p, '角色名称').locator('input').fill('文本');
        await p.getByTestId('filter-search').click();
        await p.waitForURL(/name=/);
        await waitList(p, 'admin_center.role.list');
      },
    },
    {
      name: 'role add: super-admin switch hides the tree (expression)',
      async open(p) {
        await openAdminPage(p, '/admin_center/authCenter/role/add');
        await p.locator('.ant-tree').waitFor();
        await formItem(p, '超级管理员').locator('.ant-switch').click();
        await p.locator('.ant-tree').waitFor({ state: 'detached' });
      },
    },
    {
      name: 'role edit and detail: load a role',
      async open(p) {
        const roles = await api<Array<{ id: number; is_super_admin: boolean }>>(p, 'role/all');
        const id = roles.find((r) => !r.is_super_admin)!.id;
        await openAdminPage(p, `/admin_center/authCenter/role/edit/${id}`);
        await p.locator('.ant-tree-treenode-checkbox-checked').first().waitFor();
        await openAdminPage(p, `/admin_center/authCenter/role/detail/${id}`);
        await p.locator('.ant-descriptions').waitFor();
        await p.locator('.ant-tree').waitFor();
      },
    },
    {
      name: 'account: open the edit modal and cancel a delete',
      async open(p) {
        await openAdminPage(p, '/admin_center/authCenter/account');
        await waitList(p, 'admin_center.account.list');
        await listRow(p, 'operator@example.com').locator('[data-action="edit"]').click();
        const modal = p.locator('.ant-modal').filter({ hasText: '编辑账号' });
        await formItem(modal, '邮箱').locator('input[value="operator@example.com"]').waitFor();
        await modal.locator('.ant-modal-close').click();
        await modal.waitFor({ state: 'hidden' });
        await listRow(p, 'operator@example.com').locator('[data-action="delete"]').click();
        await confirmDialog(p).locator('.ant-btn:not(.ant-btn-primary)').click();
        await confirmDialog(p).waitFor({ state: 'hidden' });
      },
    },
    {
      name: 'audit logs: filter by resource',
      async open(p) {
        await openAdminPage(p, '/admin_center/authCenter/auditLogs');
        await waitList(p, 'admin_center.audit_log.list');
        await formItem(p, '资源').locator('input').fill('session');
        await p.getByTestId('filter-search').click();
        await p.waitForURL(/resource=session/);
        await waitList(p, 'admin_center.audit_log.list');
      },
    },
  ];

  for (const step of pages) {
    it(`${step.name} — no violation, no console error`, async () => {
      const before = consoleErrors.length;
      await step.open(page);
      assert.deepEqual(await violations(), [], 'no securitypolicyviolation');
      assert.deepEqual(consoleErrors.slice(before), [], 'no console error');
    });
  }

  it('enforces the policy: eval and new Function throw in the page', async () => {
    await openAdminPage(page, '/admin_center/authCenter/role');
    // DevTools' own evaluate may run eval regardless of the CSP, so the attempt runs in a task of
    // the page; the violation events arrive in a later task, so the page polls for them (≤ 2 s)
    // (no named functions inside: tsx would wrap them in a `__name` helper the page lacks)
    const { outcome, reported } = await page.evaluate(
      () =>
        new Promise<{ outcome: string[]; reported: string[] }>((resolve) =>
          setTimeout(() => {
            const seen = (window.__cspViolations ?? []).length;
            // eslint-disable-next-line no-eval -- the test checks that the CSP refuses eval
            const outcome = [() => eval('1'), () => new Function('return 2')()].map((f: () => unknown) => {
              try {
                return `ran: ${String(f())}`;
              } catch (e) {
                return `${(e as Error).name}: ${(e as Error).message}`;
              }
            });
            const started = Date.now();
            const timer = setInterval(() => {
              const reported = (window.__cspViolations ?? []).slice(seen);
              if (reported.length >= 2 || Date.now() - started > 2000) {
                clearInterval(timer);
                resolve({ outcome, reported });
              }
            }, 20);
          }, 0),
        ),
    );
    for (const o of outcome) assert.match(o, /^EvalError: .*(Content Security Policy|unsafe-eval)/);
    assert.ok(reported.length >= 1 && reported.every((v) => v.startsWith('script-src')), `violations: ${reported.join('; ')}`);
  });
});
