/**
 * The experiment lab (panda_descendant) and the script-management / data-center pages of
 * intelligent_text, in Chromium against the real server with the demo data: every list route
 * shows demo rows as the super admin, every detail / form route draws, a pending test task is
 * started from its detail page and its run finishes by itself (checked against the API), an exit code is
 * added in its modal, and a lab training task trains in the sandbox trainer of the demo data: started
 * on its page, its train status moves through the trainer's states to 训练成功 on the page, and its
 * model is added as a model server in one click. Run: node --import tsx --test tests/e2e/lab.test.ts
 * (screenshots in /tmp/shots)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api, confirmDialog } from './admin-helpers.js';
import { startHarness, visit, type Harness } from './harness.js';

let h: Harness;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  // the server the harness spawns reads its trainer every second instead of every 5 (the sandbox's course is its own)
  process.env.TRAINER_POLL_MS = '1000';
  h = await startHarness();
  page = await h.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
});

after(async () => {
  await page?.context().close();
  await h?.close();
});

const schema = (id: string) => page.locator(`[data-schema-id="${id}"]`);
const rows = (id: string) => schema(id).locator('.ant-table-tbody tr.ant-table-row');

/**
 * Another route is reached in the app (the menu's way, no page load); the same route, a page of
 * the same schema (add → edit) or one left with a modal open is loaded afresh, so the checks
 * below never read the page before.
 */
/**
 * Runs `act` and waits for the success message it raised: `open` moves inside the app, so a
 * message of the step before (shown 3 s) may still be on the page, and waiting for "the last
 * success message" could return before this step's request has answered.
 */
async function succeeds(act: () => Promise<void>): Promise<void> {
  await page.evaluate(() => document.querySelectorAll('.ant-message-success').forEach((e) => e.setAttribute('data-e2e-seen', '')));
  await act();
  await page.locator('.ant-message-success:not([data-e2e-seen])').first().waitFor();
}

async function open(route: string, id: string, listId: string | null = id): Promise<void> {
  const here = new URL(page.url()).pathname;
  const fresh = here === route || here === '/login' || (await schema(id).count()) > 0 || (await page.locator('.ant-modal-wrap:visible').count()) > 0;
  if (fresh) await page.goto(route);
  else await visit(page, route);
  await schema(id).first().waitFor({ timeout: 30_000 });
  if (listId) await rows(listId).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'), undefined, { timeout: 20_000 });
  assert.equal(await page.getByTestId('schema-error-panel').count(), 0, `${route}: schema error panel`);
  assert.equal(await page.getByTestId('unknown-widget').count(), 0, `${route}: unknown widget`);
  assert.equal(await page.locator('.ant-card .ant-alert-error').count(), 0, `${route}: error alert`);
}

const shotName = (route: string) => route.replace(/^\//, '').replace(/[/?=&:]/g, '_');
const firstId = async (path: string, params: Record<string, string | number> = {}) =>
  (await api<{ list: Array<{ id: number }> }>(page, path, { page: 1, page_size: 1, ...params })).list[0].id;

describe('lab and script-management lists show the demo data', () => {
  const lists: Array<[string, string]> = [
    ['/intelligent_text/scriptManage/taskList', 'intelligent_text.script_manage.test_task_list'],
    ['/intelligent_text/scriptManage/ratingTaskList', 'intelligent_text.script_manage.rating_task_list'],
    ['/intelligent_text/dataCenter/dataSet', 'intelligent_text.data_center.dataSet_list'],
    ['/intelligent_text/dataCenter/ratingDataSet', 'intelligent_text.data_center.ratingDataSet_list'],
    ['/intelligent_text/dataCenter/exitCode', 'intelligent_text.data_center.exit_code_list'],
    ['/panda_descendant/lab/train', 'panda_descendant.train_task_list'],
    ['/panda_descendant/lab/dataSet', 'panda_descendant.dataset_list'],
    ['/panda_descendant/lab/text/content', 'panda_descendant.content_list'],
    ['/panda_descendant/lab/text/comment', 'panda_descendant.comment_list'],
    ['/panda_descendant/lab/account/role', 'panda_descendant.lab_role_list'],
    ['/panda_descendant/lab/account/user', 'panda_descendant.lab_user_list'],
  ];
  for (const [route, id] of lists) {
    it(`${route} lists rows`, async () => {
      await open(route, id);
      await h.shot(page, shotName(route));
    });
  }
});

describe('detail, result and form pages draw', () => {
  it('test and rating task pages', async () => {
    for (const [base, api_, kind] of [['taskList', 'script-task', 'test'], ['ratingTaskList', 'rating-task', 'rating']] as const) {
      const finished = await firstId(`${api_}/list`, { status: 'finished' });
      const pending = await firstId(`${api_}/list`, { status: 'pending' });
      await open(`/intelligent_text/scriptManage/${base}/detail/${finished}`, `intelligent_text.script_manage.${kind}_task_detail`, `intelligent_text.script_manage.${kind}_task_result`);
      await h.shot(page, `${kind}-task-detail`);
      await open(`/intelligent_text/scriptManage/${base}/detail/result/${finished}`, `intelligent_text.script_manage.${kind}_task_result`);
      await h.shot(page, `${kind}-task-result`);
      await open(`/intelligent_text/scriptManage/${base}/addTask`, `intelligent_text.script_manage.${kind}_task_form`, null);
      await open(`/intelligent_text/scriptManage/${base}/editTask/${pending}`, `intelligent_text.script_manage.${kind}_task_form`, null);
      await page.locator('input[value]').first().waitFor();
      await h.shot(page, `${kind}-task-edit`);
    }
  });

  it('dataset forms', async () => {
    for (const [route, api_, loc] of [['dataSet', 'data-set', 'dataSet'], ['ratingDataSet', 'rating-data-set', 'ratingDataSet']] as const) {
      const id = await firstId(`${api_}/list`);
      await open(`/intelligent_text/dataCenter/${route}/add`, `intelligent_text.data_center.${loc}_form`, null);
      await open(`/intelligent_text/dataCenter/${route}/edit/${id}`, `intelligent_text.data_center.${loc}_form`, null);
      await h.shot(page, `${loc}-edit`);
    }
  });

  it('lab task, dataset and conversation pages', async () => {
    const task = await firstId('lab/train-task/list', { status: 'pending' });
    await open(`/panda_descendant/lab/train/task/detail/${task}`, 'panda_descendant.train_task_detail', null);
    await h.shot(page, 'lab-train-detail');
    await open('/panda_descendant/lab/train/task/add', 'panda_descendant.train_task_form', null);
    await open(`/panda_descendant/lab/train/task/edit/${task}`, 'panda_descendant.train_task_form', null);
    const ds = await firstId('lab/dataset/list');
    await open('/panda_descendant/lab/dataSet/add', 'panda_descendant.dataset_form', null);
    await open(`/panda_descendant/lab/dataSet/edit/${ds}`, 'panda_descendant.dataset_form', null);
    const conv = await firstId('lab/content/list');
    await open(`/panda_descendant/lab/text/content/details/${conv}`, 'panda_descendant.content_detail', null);
    await h.shot(page, 'lab-content-detail');
    await open('/panda_descendant/lab/text/content/add', 'panda_descendant.content_form', null);
    await open(`/panda_descendant/lab/text/content/edit/${conv}`, 'panda_descendant.content_form', null);
    await h.shot(page, 'lab-content-edit');
  });
});

describe('actions', () => {
  it('starts a pending test task from its detail page; its run then finishes by itself', async () => {
    const id = await firstId('script-task/list', { status: 'pending' });
    const detail = 'intelligent_text.script_manage.test_task_detail';
    await open(`/intelligent_text/scriptManage/taskList/detail/${id}`, detail, null);
    await succeeds(() => schema(detail).getByRole('button', { name: /^开\s*始$/ }).click());
    await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'), undefined, { timeout: 20_000 });
    // the run is a work-engine job answering with the built-in responder: a demo dataset takes a moment
    const deadline = Date.now() + 120_000;
    let t = await api<{ status: string; done: number; total: number }>(page, 'script-task/detail', { id });
    while (t.status !== 'finished' && Date.now() < deadline) {
      assert.equal(t.status, 'running');
      await page.waitForTimeout(300);
      t = await api<{ status: string; done: number; total: number }>(page, 'script-task/detail', { id });
    }
    assert.equal(t.status, 'finished');
    assert.equal(t.done, t.total);
  });

  it('adds an exit code in its modal', async () => {
    const list = 'intelligent_text.data_center.exit_code_list';
    await open('/intelligent_text/dataCenter/exitCode', list);
    await schema(list).getByRole('button', { name: /新\s*增/ }).click();
    const modal = page.locator('.ant-modal:visible');
    await modal.locator('input').first().fill('e2e_code');
    await succeeds(() => modal.locator('.ant-modal-footer .ant-btn-primary').click());
    const found = await api<{ list: Array<{ code: string }> }>(page, 'exit-code/list', { code: 'e2e_code' });
    assert.equal(found.list.length, 1);
    await h.shot(page, 'exit-code-added');
  });

  it('a lab training task trains in the sandbox: queued → 训练成功 on its page, its model added as a model server', async () => {
    type Task = { id: number; epochs: number; status: string; train_status: string; trainer_mode: string; fine_tuned_model: string | null; result_model_server_id: number | null };
    const pending = (await api<{ list: Task[] }>(page, 'lab/train-task/list', { status: 'pending', page: 1, page_size: 100 })).list.filter((t) => t.trainer_mode === 'sandbox');
    assert.ok(pending.length > 0, 'a pending demo task on the sandbox trainer');
    const task = pending.reduce((a, b) => (b.epochs < a.epochs ? b : a));
    const detail = 'panda_descendant.train_task_detail';
    await open(`/panda_descendant/lab/train/task/detail/${task.id}`, detail, null);
    const body = schema(detail).first();
    await body.getByText('沙箱（不做真实训练）').first().waitFor();
    await body.getByText('未提交').first().waitFor();
    await succeeds(() => body.getByRole('button', { name: /^开\s*始$/ }).click());
    // the page follows the run by itself (refreshWhile running): a trainer state on the way, then success
    await body.getByText(/^(上传数据中|校验文件中|排队中|训练中)$/).first().waitFor({ timeout: 60_000 });
    await h.shot(page, 'lab-train-running');
    await body.getByText('训练成功').first().waitFor({ timeout: 120_000 });
    await body.getByText('已完成').first().waitFor({ timeout: 20_000 });
    const done = await api<Task>(page, 'lab/train-task/detail', { id: task.id });
    assert.equal(done.train_status, 'succeeded');
    assert.match(done.fine_tuned_model ?? '', /^ft:.+:sandbox:/);
    await body.getByText(done.fine_tuned_model!).first().waitFor();
    await h.shot(page, 'lab-train-succeeded');

    // one click (and its confirmation) adds the model as a model server, disabled: the sandbox trained nothing
    await body.getByRole('button', { name: '添加为模型服务' }).click();
    await succeeds(() => confirmDialog(page).locator('.ant-btn-primary').click());
    await body.getByRole('button', { name: '查看模型服务' }).waitFor();
    const added = await api<Task>(page, 'lab/train-task/detail', { id: task.id });
    assert.ok(added.result_model_server_id);
    const ms = await api<{ provider: string; enabled: boolean; model: string }>(page, 'config/model-server/detail', { id: added.result_model_server_id });
    assert.equal(ms.provider, 'sandbox');
    assert.equal(ms.enabled, false);
    assert.equal(ms.model, done.fine_tuned_model);
    await h.shot(page, 'lab-train-model-added');
  });

  it('raised no page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
