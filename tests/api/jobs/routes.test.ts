// @db both — the queue behind the Jobs page
/**
 * The Jobs page's routes (server/routes/jobs.ts) on a real engine: list (filters, newest first,
 * who started it, progress), detail, cancel and retry (audited, 40009 when the state does not
 * allow it), the permission keys, and job/of (a record's jobs for whoever may open its page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from './until.js';

let s: TestServer;
let admin: ApiClient;
let adminId: number;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  adminId = (await s.db.query<{ id: number }>('SELECT id FROM accounts WHERE email = $1', [ADMIN_EMAIL])).rows[0].id;
});
afterAll(async () => s?.close());

interface JobRow {
  id: number;
  kind: string;
  title: string;
  state: string;
  attempts: number;
  last_error: string;
  progress: number;
  progress_done: number;
  progress_total: number;
  created_by: number | null;
  created_by_name: string | null;
  created_by_email: string | null;
}

const enqueue = (data: object, opts: object = {}) => s.db.tx((q) => s.app.jobs.enqueue(q, 'system.noop', data, opts));
const detail = async (id: number): Promise<JobRow> => (await admin.get('job/detail', { id })).body.data;
const audits = async (id: number) =>
  (await s.db.query<{ action: string; before: unknown; after: unknown }>(`SELECT action, before, after FROM audit_logs WHERE resource = 'job' AND target_id = $1 ORDER BY id`, [String(id)])).rows;

describe('job/list and job/detail', () => {
  it('lists newest first with who started it and progress; filters by state, kind, ref and starter', async () => {
    const a = await enqueue({ steps: 2 }, { createdBy: adminId, title: 'list test A', ref: { type: 'learn_doc', id: 900001 } });
    const b = await enqueue({ failTimes: 9 }, { maxAttempts: 1, title: 'list test B' });
    await until(() => detail(a.id), (j) => j.state === 'done');
    await until(() => detail(b.id), (j) => j.state === 'failed');

    const all = (await admin.get('job/list', { keyword: 'list test' })).body.data;
    expect(all.list.map((j: JobRow) => j.id)).toEqual([b.id, a.id]);
    const ja: JobRow = all.list[1];
    expect(ja).toMatchObject({ kind: 'system.noop', state: 'done', progress: 100, progress_done: 2, progress_total: 2, attempts: 1 });
    expect(ja).toMatchObject({ created_by: adminId, created_by_email: ADMIN_EMAIL, created_by_name: 'Admin' });
    expect(all.list[0]).toMatchObject({ state: 'failed', created_by: null, created_by_email: null, last_error: expect.stringContaining('planned failure 1') });

    const failed = (await admin.get('job/list', { state: 'failed', keyword: 'list test' })).body.data.list;
    expect(failed.map((j: JobRow) => j.id)).toEqual([b.id]);
    const byRef = (await admin.get('job/list', { ref_type: 'learn_doc', ref_id: 900001 })).body.data.list;
    expect(byRef.map((j: JobRow) => j.id)).toEqual([a.id]);
    const mine = (await admin.get('job/list', { created_by: adminId, keyword: 'list test' })).body.data.list;
    expect(mine.map((j: JobRow) => j.id)).toEqual([a.id]);
    expect((await admin.get('job/list', { kind: 'doc.learn', keyword: 'list test' })).body.data.total).toBe(0);
    // a literal % in the keyword is not a wildcard
    expect((await admin.get('job/list', { keyword: 'list%test' })).body.data.total).toBe(0);

    const d = (await admin.get('job/detail', { id: a.id })).body.data;
    expect(d).toMatchObject({ id: a.id, data: { steps: 2 }, result: { steps: 2 } });
  });

  it('bad filters are 40001; an unknown id is 40004', async () => {
    expect((await admin.get('job/list', { state: 'sleeping' })).body.code).toBe(40001);
    expect((await admin.get('job/list', { ref_id: 'x' })).body.code).toBe(40001);
    expect((await admin.get('job/detail', { id: 99999999 })).body.code).toBe(40004);
    expect((await admin.post('job/retry', { id: 99999999 })).body.code).toBe(40004);
    expect((await admin.post('job/cancel', {})).body.code).toBe(40001);
  });
});

describe('job/cancel and job/retry', () => {
  it('cancels a running job (audited); a second cancel is 40009', async () => {
    const { id } = await enqueue({ steps: 300 });
    await until(() => detail(id), (j) => j.state === 'running' && j.progress_done > 0);
    const r = await admin.post('job/cancel', { id });
    expect(r.body.code).toBe(10000);
    expect(r.body.data).toMatchObject({ id, cancel_requested: true });
    const c = await until(() => detail(id), (j) => j.state === 'cancelled', 60_000);
    expect(c.progress_done).toBeLessThan(300);
    const again = await admin.post('job/cancel', { id });
    expect(again.body.code).toBe(40009);
    expect(again.body.msg).toContain('cancelled');
    expect(await audits(id)).toEqual([
      { action: 'cancel', before: { state: 'running' }, after: { state: 'running', cancel_requested: true } },
    ]);
  });

  it('retries a failed job: it runs again and succeeds (audited); retrying a done job is 40009', async () => {
    const { id } = await enqueue({ failTimes: 1 }, { maxAttempts: 1 });
    await until(() => detail(id), (j) => j.state === 'failed');
    const r = await admin.post('job/retry', { id });
    expect(r.body.code).toBe(10000);
    expect(r.body.data.state).toBe('queued');
    const done = await until(() => detail(id), (j) => j.state === 'done');
    expect(done.attempts).toBe(2);
    expect(await audits(id)).toEqual([{ action: 'retry', before: { state: 'failed', attempts: 1 }, after: { state: 'queued' } }]);
    const again = await admin.post('job/retry', { id });
    expect(again.body).toMatchObject({ code: 40009, data: null });
    expect(again.body.msg).toContain('only a failed or cancelled job');
    expect(await audits(id)).toHaveLength(1);
  });

  it('cancels a queued job at once; retried, it runs now', async () => {
    const { id } = await enqueue({}, { startAfter: new Date(Date.now() + 3_600_000) });
    expect((await admin.post('job/cancel', { id })).body.data.state).toBe('cancelled');
    expect((await detail(id)).attempts).toBe(0);
    expect((await admin.post('job/retry', { id })).body.code).toBe(10000);
    expect((await until(() => detail(id), (j) => j.state === 'done')).attempts).toBe(1);
  });
});

describe('permissions', () => {
  it('the page key lists; retry and cancel need their own keys', async () => {
    const viewer = await s.loginWithKeys(['admin_center', 'admin_center.admin.job']);
    expect((await viewer.get('job/list')).body.code).toBe(10000);
    const { id } = await enqueue({ failTimes: 1 }, { maxAttempts: 1 });
    await until(() => detail(id), (j) => j.state === 'failed');
    expect((await viewer.post('job/retry', { id })).body.code).toBe(40003);
    expect((await viewer.post('job/cancel', { id })).body.code).toBe(40003);
    expect((await detail(id)).state).toBe('failed');
    const retrier = await s.loginWithKeys(['admin_center', 'admin_center.admin.job', 'admin_center.admin.job.retry']);
    expect((await retrier.post('job/retry', { id })).body.code).toBe(10000);
    const other = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text.shop.list']);
    expect((await other.get('job/list')).body.code).toBe(40003);
    expect((await other.get('job/detail', { id })).body.code).toBe(40003);
  });

  it('job/of: a record’s jobs (state and progress only) for whoever may open its page', async () => {
    const { id } = await enqueue({ steps: 1 }, { ref: { type: 'learn_doc', id: 900002 }, createdBy: adminId });
    const docs = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text.learn.doc_manage']);
    const r = await docs.get('job/of', { ref_type: 'learn_doc', ref_id: 900002 });
    expect(r.body.code).toBe(10000);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ id, kind: 'system.noop', ref_type: 'learn_doc', ref_id: 900002 });
    expect(r.body.data[0]).not.toHaveProperty('created_by_email');
    expect(r.body.data[0]).not.toHaveProperty('data');
    // another page's key, or a ref type no page claims: forbidden
    expect((await docs.get('job/of', { ref_type: 'call_task', ref_id: 1 })).body.code).toBe(40003);
    expect((await docs.get('job/of', { ref_type: 'mystery', ref_id: 1 })).body.code).toBe(40003);
    expect((await admin.get('job/of', { ref_type: 'mystery', ref_id: 1 })).body).toMatchObject({ code: 10000, data: [] });
  });
});

describe('titles and errors in the caller language', () => {
  it('the console (x-lang) gets its half of "english / 中文", an API client without one gets both', async () => {
    // not due for an hour: no worker touches its error meanwhile
    const { id } = await enqueue({}, { title: 'Learn "a.pdf" / 学习文档「a.pdf」', startAfter: new Date(Date.now() + 3_600_000) });
    await s.db.query(`UPDATE work_job SET last_error = $2 WHERE id = $1`, [id, 'parse failed / 解析失败']);
    const both = await detail(id);
    expect(both.title).toBe('Learn "a.pdf" / 学习文档「a.pdf」');
    const zh = (await admin.request('GET', 'job/detail', { query: { id }, headers: { 'x-lang': 'zh-CN' } })).body.data;
    expect(zh.title).toBe('学习文档「a.pdf」');
    expect(zh.last_error).toBe('解析失败');
    const en = (await admin.request('GET', 'job/list', { query: { page: 1, page_size: 50 }, headers: { 'x-lang': 'en-US' } })).body.data;
    const row = en.list.find((r: JobRow) => r.id === id);
    expect(row.title).toBe('Learn "a.pdf"');
    expect(row.last_error).toBe('parse failed');
  });
});
