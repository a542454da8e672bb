/**
 * Live progress and the Jobs page, in Chromium against the real server:
 * - an immediate rating task (answered through a stand-in model server, outside the system, so
 *   the run takes several seconds) shows on its detail page: the progress bar moves and the
 *   embedded result table fills while it runs, without a page reload;
 * - the Jobs page (admin_center System → Jobs) lists a failed job with its error, and Retry runs
 *   it again; a running job's progress moves on the list; Cancel stops a running job.
 * The failing and long no-op jobs are put on the queue through job/test-noop, a route the server
 * only has with JOBS_TEST_ROUTES=1 (set here for the servers this file starts).
 * Run: node --import tsx --test tests/e2e/jobs.test.ts (screenshots in /tmp/shots)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startModelStandIn, type ModelStandIn } from '../api/lab/model-standin.js';
import { api, confirmDialog } from './admin-helpers.js';
import { startHarness, type Harness } from './harness.js';

process.env.JOBS_TEST_ROUTES = '1';

let h: Harness;
let page: Page;
let model: ModelStandIn;
const pageErrors: string[] = [];

before(async () => {
  h = await startHarness();
  model = await startModelStandIn(20, { gated: true });
  page = await h.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
});

after(async () => {
  await page?.context().close();
  await h?.close();
  await model?.close();
});

/** POST `/api/admin/<path>` with the page's session; asserts code 10000 and returns `data`. */
async function post<T>(path: string, data: object): Promise<T> {
  const sid = (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
  const res = await page.request.post(`/api/admin/${path}`, { data, headers: { 'admin-token': sid } });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  assert.equal(body.code, 10000, `${path}: ${body.code} ${body.msg}`);
  return body.data;
}

const schema = (id: string) => page.locator(`[data-schema-id="${id}"]`);

/** Every main-frame navigation after this call is counted (a reload would be one). */
async function countNavigations(): Promise<() => number> {
  let n = 0;
  const on = (f: { parentFrame(): unknown }) => {
    if (!f.parentFrame()) n++;
  };
  page.on('framenavigated', on);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  return () => n;
}
const sameDocument = () => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

/** Numbers of the pagination's "共 N 条" under `root`. */
const totalShown = async (root: ReturnType<typeof schema>) => {
  const text = (await root.locator('.ant-pagination-total-text').first().textContent({ timeout: 1000 }).catch(() => null)) ?? '';
  const m = /(\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
};

describe('live progress of a rating task', () => {
  it('the progress bar moves and the result table fills without a reload', async () => {
    // the stand-in holds every answer until the test lets a step out (model.release), and lets
    // the next step out only once the page has shown the last one: the page is seen moving
    // whatever the machine's load, and 12 samples in 4 steps keep the run short
    const N = 12;
    const STEP = 3;
    const server = await post<{ id: number }>('config/model-server/create', { name: 'e2e slow stand-in', model: 'answer-slow', endpoint: model.baseUrl, timeout_ms: 300_000 });
    const samples = Array.from({ length: N }, (_, i) => ({ input: `Question ${i + 1}: can I return unworn items?`, expected: 'Unworn items can be returned within 30 days.' }));
    const set = await post<{ id: number }>('rating-data-set/create', { name: 'e2e live progress', samples });
    const task = await post<{ id: number; status: string; total: number }>('rating-task/create', {
      name: 'e2e live progress',
      dataset_id: set.id,
      prompt: 'Answer briefly.',
      model_server_id: server.id,
      mode: 'immediate',
    });
    assert.equal(task.status, 'running');
    assert.equal(task.total, N);

    const detailId = 'intelligent_text.script_manage.rating_task_detail';
    const resultId = 'intelligent_text.script_manage.rating_task_result';
    await page.goto(`/intelligent_text/scriptManage/ratingTaskList/detail/${task.id}`);
    await schema(detailId).locator('[data-progress]').first().waitFor({ timeout: 30_000 });
    const navigations = await countNavigations();
    await schema(detailId).getByTestId('live-mark').first().waitFor({ timeout: 10_000 });
    const results = schema(resultId);

    // watch the bar and the result count until the run is over; each step is let out once the
    // page shows the one before (a state, with a generous bound for CI's load)
    const percents: number[] = [];
    const totals: number[] = [];
    let released = STEP;
    model.release(STEP);
    const deadline = Date.now() + 240_000;
    for (;;) {
      const p = Number(await schema(detailId).locator('[data-progress]').first().getAttribute('data-progress'));
      const n = await totalShown(results);
      if (percents.at(-1) !== p) percents.push(p);
      if (totals.at(-1) !== n) totals.push(n);
      if (p === 100 && n === N) break;
      if (released < N && n === released && p >= Math.floor((100 * released) / N)) {
        released += STEP;
        model.release(STEP);
      }
      assert.ok(Date.now() < deadline, `the run did not finish on the page: bar ${percents.join(',')} results ${totals.join(',')}`);
      await page.waitForTimeout(250);
    }
    await h.shot(page, 'jobs-rating-task-live');

    // it moved in steps (not 0 → 100 in one jump), never backwards, and the table filled as it went
    assert.ok(percents.filter((p) => p > 0 && p < 100).length >= 2, `bar values ${percents.join(',')}`);
    assert.deepEqual([...percents].sort((a, b) => a - b), percents);
    assert.ok(totals.filter((n) => n > 0 && n < N).length >= 2, `result counts ${totals.join(',')}`);
    assert.deepEqual([...totals].sort((a, b) => a - b), totals);
    assert.equal(navigations(), 0, 'no navigation while it ran');
    assert.ok(await sameDocument(), 'the page was not reloaded');

    // finished: the page says so and stops refreshing
    const t = await api<{ status: string; done: number }>(page, 'rating-task/detail', { id: task.id });
    assert.equal(t.done, N);
    await schema(detailId).getByText('已完成').first().waitFor({ timeout: 10_000 });
    await schema(detailId).getByTestId('live-mark').waitFor({ state: 'detached', timeout: 10_000 });
  });
});

describe('the Jobs page', () => {
  const listId = 'admin_center.job.list';
  const row = (title: string) => schema(listId).locator('tr.ant-table-row').filter({ hasText: title });

  it('is in the System menu', async () => {
    await page.goto('/admin_center/home');
    await page.getByTestId('side-menu').getByText('系统').click();
    await page.getByTestId('side-menu').getByText('后台任务').click();
    await page.waitForURL(/\/admin_center\/system\/jobs/);
    await schema(listId).locator('tr.ant-table-row').first().waitFor({ timeout: 30_000 });
  });

  it('lists a failed job with its error; Retry runs it again', async () => {
    const { id } = await post<{ id: number }>('job/test-noop', { failTimes: 1, maxAttempts: 1, title: 'e2e failing job' });
    for (let i = 0; (await api<{ state: string }>(page, 'job/detail', { id })).state !== 'failed'; i++) {
      assert.ok(i < 100, 'the job did not fail');
      await page.waitForTimeout(200);
    }
    await page.goto('/admin_center/system/jobs?keyword=e2e%20failing');
    const r = row('e2e failing job');
    await r.waitFor({ timeout: 30_000 });
    await r.getByText('失败').waitFor();
    await r.getByText('planned failure 1').waitFor();
    await h.shot(page, 'jobs-failed');
    const navigations = await countNavigations();

    await r.getByRole('button', { name: /重\s*试/ }).click();
    await confirmDialog(page).locator('.ant-btn-primary').click();
    await confirmDialog(page).waitFor({ state: 'hidden' });
    // it runs again and the row turns done by itself (the list refreshes while it is queued or
    // running); the 3-second success toast is not awaited: on a busy machine it can come and go
    // between two looks
    await r.getByText('已完成').waitFor({ timeout: 30_000 });
    const j = await api<{ state: string; attempts: number }>(page, 'job/detail', { id });
    assert.deepEqual({ state: j.state, attempts: j.attempts }, { state: 'done', attempts: 2 });
    assert.equal(navigations(), 0);
    assert.equal(await r.getByRole('button', { name: /重\s*试/ }).count(), 0, 'no retry on a done job');
  });

  it('shows a running job’s progress as it moves, and Cancel stops it', async () => {
    const { id } = await post<{ id: number }>('job/test-noop', { steps: 400, title: 'e2e long job' });
    await page.goto('/admin_center/system/jobs?keyword=e2e%20long');
    const r = row('e2e long job');
    await r.locator('[data-progress]').waitFor({ timeout: 30_000 });
    const navigations = await countNavigations();
    const seen = new Set<number>();
    for (let i = 0; seen.size < 3; i++) {
      assert.ok(i < 80, `progress did not move: ${[...seen].join(',')}`);
      seen.add(Number(await r.locator('[data-progress]').getAttribute('data-progress')));
      await page.waitForTimeout(250);
    }
    await h.shot(page, 'jobs-running');
    await r.getByRole('button', { name: /取\s*消/ }).click();
    await confirmDialog(page).locator('.ant-btn-primary').click();
    await r.getByText('已取消').waitFor({ timeout: 15_000 });
    const j = await api<{ state: string; progress_done: number }>(page, 'job/detail', { id });
    assert.equal(j.state, 'cancelled');
    assert.ok(j.progress_done < 400);
    assert.equal(navigations(), 0);
  });

  it('opens a job’s detail page', async () => {
    await row('e2e long job').getByRole('button', { name: /详\s*情/ }).click();
    const d = schema('admin_center.job.detail');
    await d.getByText('已取消').first().waitFor({ timeout: 20_000 });
    await d.getByText('e2e long job').first().waitFor();
    await h.shot(page, 'jobs-detail');
  });

  it('raised no page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
