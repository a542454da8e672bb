/**
 * A scored run's results as people read them (issue 21), in Chromium against the real server with
 * the demo data: a demo test task's result page shows each question on one line — the outcome and
 * the responder as labels, the deciding scorer and its reason as text — with no JSON cell and no raw
 * value (`builtin`, `[]`), rows a line high; a row's Trace opens the answer's trace with the
 * scorer's decision. Two prompt versions compared on a dataset in one action land on the first task's
 * page, its comparison of both runs, each row with each run's answer, score and cost. Run: node --import tsx --test tests/e2e/run-results.test.ts (screenshots in /tmp/shots)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api, apiPost, openAdminPage, settle, waitList } from './admin-helpers.js';
import { startHarness, type Harness } from './harness.js';
import { until } from '../api/jobs/until.js';

let h: Harness;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  h = await startHarness();
  page = await h.newPage();
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
});

after(async () => {
  await page?.context().close();
  await h?.close();
});

describe('a run result page', () => {
  it('reads as text with labels, one line a row, and opens a trace with the decision', async () => {
    const tasks = await api<{ list: Array<{ id: number; done: number }> }>(page, 'script-task/list', { page: 1, page_size: 50 });
    const task = tasks.list.find((t) => t.done > 0);
    assert.ok(task, 'the demo has a test task with results');
    const res = await api<{ list: Array<{ trace_id: number | null; decision: string }> }>(page, 'script-task/result/list', { task_id: task.id, page_size: 20 });
    assert.ok(res.list.some((r) => r.trace_id), 'demo results are traced');

    await openAdminPage(page, `/intelligent_text/scriptManage/taskList/detail/result/${task.id}`);
    const table = await waitList(page, 'intelligent_text.script_manage.test_task_result');
    const rows = table.locator('.ant-table-tbody tr.ant-table-row');
    await rows.first().waitFor();
    const n = await rows.count();
    assert.ok(n > 0);
    for (let i = 0; i < n; i++) {
      const box = (await rows.nth(i).boundingBox())!;
      assert.ok(box.height < 90, `row ${i + 1} is ${box.height} px tall`);
      const cells = await rows.nth(i).locator('td').allInnerTexts();
      for (const c of cells) {
        assert.ok(!/^\s*(\[\]|\{\}|builtin|model|pass|fail|error)\s*$/.test(c), `a raw value in a cell: ${JSON.stringify(c)}`);
        assert.ok(!/^\s*[[{]"/.test(c), `JSON in a cell: ${c.slice(0, 80)}`);
      }
    }
    const header = (await table.locator('.ant-table-thead').innerText()).replace(/\s+/g, ' ');
    assert.match(header, /评分依据|Decided by/);
    const text = await table.locator('.ant-table-tbody').innerText();
    assert.match(text, /内置检索应答|Built-in responder/);
    assert.match(text, /通过|未通过|Pass|Fail/);
    await settle(page);
    await h.shot(page, 'run-results');

    // a row's Trace opens the answer's trace, with the scorer's decision
    await rows.first().getByText(/^(追踪|Trace)$/).click();
    await page.getByTestId('trace-page').waitFor();
    await page.getByTestId('trace-score').waitFor();
    assert.ok((await page.getByTestId('trace-decision').innerText()).trim().length > 0);
    assert.ok((await page.getByTestId('trace-retrieval').innerText()).length > 0);
    await settle(page);
    await h.shot(page, 'run-result-trace');
    assert.deepEqual(pageErrors, []);
  });
});

describe('two prompt versions compared on a dataset', () => {
  it("both runs started together land on the first task's comparison of them, each run's answers and costs side by side", async () => {
    const p = await apiPost<{ id: number }>(page, 'prompt/create', { name: 'E2E compared prompt', content: 'ONE: answer from {{knowledge}}.' });
    await apiPost(page, 'prompt/update', { id: p.id, content: 'TWO: answer from {{knowledge}} briefly.' });
    const [v2, v1] = await api<Array<{ id: number }>>(page, 'prompt/versions', { prompt_id: p.id });
    const sets = await api<{ list: Array<{ id: number; sample_count: number }> }>(page, 'data-set/list', { page: 1, page_size: 50 });
    const ds = sets.list.filter((d) => d.sample_count > 0).sort((x, y) => x.sample_count - y.sample_count)[0];
    assert.ok(ds, 'the demo has a test dataset with questions');

    // what the prompt list's row action "Compare versions" submits from its modal
    const made = await apiPost<{ a: number; b: number; path: string }>(page, 'script-task/compare-versions', { prompt_version_id: v2.id, other_version_id: v1.id, dataset_id: ds.id });
    // both runs over (a request may wait while a run's slice holds the database: that try is no answer yet)
    const over = async (id: number) => api<{ status: string }>(page, 'script-task/detail', { id }).then((t) => t.status !== 'running', () => false);
    for (const id of [made.a, made.b]) await until(() => over(id), (x) => x, 240_000);
    await openAdminPage(page, made.path);
    // the first task's page: its run comparison against the newest other run of the dataset, the second task
    const table = await waitList(page, 'intelligent_text.script_manage.test_task_compare');
    await table.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    const header = (await table.locator('.ant-table-thead').innerText()).replace(/\s+/g, ' ');
    assert.match(header, /本次费用|This run's cost/);
    assert.match(header, /对比运行费用|Other run's cost/);
    await settle(page);
    await h.shot(page, 'run-compare-versions');
    assert.deepEqual(pageErrors, []);
  });
});
