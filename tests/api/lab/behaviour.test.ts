// @db once
/** Lab and script-management rules beyond the per-route matrix: status transitions, samples, run enqueueing, guards (runs themselves: runs.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMaxId, expectFieldError, fingerprint } from '../business/helpers.js';
import { startLab, type LabEnv } from './env.js';

let env: LabEnv;
beforeAll(async () => {
  env = await startLab();
});
afterAll(async () => {
  await env?.s.close();
});

const newTask = async (extra: Record<string, unknown> = {}) =>
  env.admin.ok('POST', 'script-task/create', { name: 'Rules', dataset_id: env.fx.dataSetId, prompt: 'Be brief.', ...extra });

describe('task status transitions', () => {
  it('pending → running → pausing → running → stopped; illegal moves are 40009 and change nothing', async () => {
    const t = await newTask();
    expect(t).toMatchObject({ status: 'pending', done: 0, started_at: null });
    const illegal = async (action: string) => {
      const before = await fingerprint(env.s, 'text_task');
      const a0 = await auditMaxId(env.s);
      const r = await env.admin.post(`script-task/${action}`, { id: t.id });
      expect(r.body.code, JSON.stringify(r.body)).toBe(40009);
      expect(await fingerprint(env.s, 'text_task')).toBe(before);
      expect(await auditMaxId(env.s)).toBe(a0);
    };
    await illegal('pause');
    expect((await env.admin.ok('POST', 'script-task/start', { id: t.id })).status).toBe('running');
    await illegal('start');
    expect((await env.admin.ok('POST', 'script-task/pause', { id: t.id })).status).toBe('pausing');
    await illegal('pause');
    expect((await env.admin.ok('POST', 'script-task/start', { id: t.id })).status).toBe('running');
    const stopped = await env.admin.ok('POST', 'script-task/stop', { id: t.id });
    expect(stopped.status).toBe('stopped');
    expect(stopped.finished_at).toBeTruthy();
    for (const a of ['start', 'pause', 'stop']) await illegal(a);
  });

  it('only pending tasks can be edited; running tasks cannot be deleted', async () => {
    const t = await newTask();
    await env.admin.ok('POST', 'script-task/start', { id: t.id });
    expect((await env.admin.post('script-task/update', { id: t.id, name: 'x' })).body.code).toBe(40009);
    expect((await env.admin.post('script-task/delete', { id: t.id })).body.code).toBe(40009);
    await env.admin.ok('POST', 'script-task/pause', { id: t.id });
    await env.admin.ok('POST', 'script-task/delete', { id: t.id });
  });

  it('an immediate task starts running; a scheduled one needs a time; assistant or prompt is required', async () => {
    expect((await newTask({ mode: 'immediate' })).status).toBe('running');
    expectFieldError(await env.admin.post('script-task/create', { name: 'S', dataset_id: env.fx.dataSetId, prompt: 'p', mode: 'schedule' }), 'scheduled_at');
    expect((await newTask({ mode: 'schedule', scheduled_at: '2026-12-01 08:00:00' })).status).toBe('pending');
    expectFieldError(await env.admin.post('script-task/create', { name: 'S', dataset_id: env.fx.dataSetId }), 'prompt');
    expectFieldError(await env.admin.post('script-task/create', { name: 'S', dataset_id: 999999, prompt: 'p' }), 'dataset_id');
  });

  it('lab experiment tasks follow the same rules', async () => {
    const t = await env.admin.ok('POST', 'lab/train-task/create', { name: 'E', dataset_id: env.fx.labDatasetId, base_model: 'glm-4-9b' });
    expect((await env.admin.post('lab/train-task/pause', { id: t.id })).body.code).toBe(40009);
    await env.admin.ok('POST', 'lab/train-task/start', { id: t.id });
    expect((await env.admin.post('lab/train-task/update', { id: t.id, epochs: 2 })).body.code).toBe(40009);
  });
});

describe('runs are enqueued with the change that starts them', () => {
  const jobsOf = async (table: string, id: number) =>
    (await env.s.db.query<{ state: string }>(`SELECT state FROM work_job WHERE ref_type = $1 AND ref_id = $2 ORDER BY id`, [table, id])).rows.map((r) => r.state);

  it('an immediate task gets its run job when saved, a manual one at start; resume while the job is queued adds none', async () => {
    const now = await newTask({ mode: 'immediate' });
    expect(await jobsOf('text_task', now.id)).toEqual(['queued']);
    const manual = await newTask();
    expect(await jobsOf('text_task', manual.id)).toEqual([]);
    await env.admin.ok('POST', 'script-task/start', { id: manual.id });
    expect(await jobsOf('text_task', manual.id)).toEqual(['queued']);
    await env.admin.ok('POST', 'script-task/pause', { id: manual.id });
    await env.admin.ok('POST', 'script-task/start', { id: manual.id });
    expect(await jobsOf('text_task', manual.id)).toEqual(['queued']);
    const scheduled = await newTask({ mode: 'schedule', scheduled_at: '2026-12-01 08:00:00' });
    expect(await jobsOf('text_task', scheduled.id)).toEqual([]);
  });

  it('a refused create enqueues nothing; the removed advance route is gone', async () => {
    const before = (await env.s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job`)).rows[0].n;
    expectFieldError(await env.admin.post('script-task/create', { name: 'S', dataset_id: env.fx.dataSetId, prompt: 'p', mode: 'immediate', model_server_id: 999999 }), 'model_server_id');
    expectFieldError(await env.admin.post('script-task/create', { name: 'S', dataset_id: env.fx.dataSetId, prompt: 'p', mode: 'immediate', shop_id: 999999 }), 'shop_id');
    expect((await env.s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job`)).rows[0].n).toBe(before);
    expect((await env.admin.post('script-task/advance', { id: 1 })).body.code).toBe(40004);
  });
});

describe('datasets and guards', () => {
  it('JSON lines errors name the line; a list and JSON lines give the same samples', async () => {
    const r = await env.admin.post('data-set/create', { name: 'Bad', sample_format: 'jsonl', samples_jsonl: '{"input":"a"}\n\n{"input":""}' });
    expectFieldError(r, 'samples_jsonl');
    expect(r.body.msg).toContain('line 3');
    expectFieldError(await env.admin.post('data-set/create', { name: 'Empty' }), 'samples');
    const list = await env.admin.ok('POST', 'rating-data-set/create', { name: 'L', samples: [{ input: 'a', expected: 'b' }, { input: 'c' }] });
    const lines = await env.admin.ok('POST', 'rating-data-set/create', { name: 'J', samples_jsonl: '{"input":"a","expected":"b"}\n{"input":"c"}' });
    expect(lines.samples).toEqual(list.samples);
    expect(list.samples_jsonl).toBe('{"input": "a", "expected": "b"}\n{"input": "c", "expected": ""}');
  });

  it('a dataset used by a task, a role with users and a duplicate exit code are refused', async () => {
    const used = (await env.s.db.query<{ id: number }>('SELECT dataset_id AS id FROM text_task LIMIT 1')).rows[0].id;
    expect((await env.admin.post('data-set/delete', { id: used })).body.code).toBe(40009);
    const role = (await env.s.db.query<{ id: number }>('SELECT role_id AS id FROM lab_user WHERE role_id IS NOT NULL LIMIT 1')).rows[0].id;
    expect((await env.admin.post('lab/role/delete', { id: role })).body.code).toBe(40009);
    expectFieldError(await env.admin.post('exit-code/create', { code: 'resolved' }), 'code');
    expectFieldError(await env.admin.post('lab/user/create', { name: 'Dup', email: 'LAB.USER1@example.com' }), 'email');
  });

  it('the task pickers answer holders of the task keys only', async () => {
    const adder = await env.as('intelligent_text.text.script_manage.task_list.add');
    expect((await adder.get('data-set/list', { page_size: 1000 })).body.code).toBe(10000);
    expect((await adder.get('rating-data-set/list')).body.code).toBe(40003);
    expect((await adder.get('script-task/assistant-options')).body.code).toBe(10000);
  });
});
