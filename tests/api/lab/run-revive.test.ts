// @db both — the lab.task-start ticker against the work_job table (the queue on each engine)
/**
 * Issue 20: a test / rating task is never left `running` without a live run job. The
 * `lab.task-start` ticker gives a new run to a running task whose run job ended without
 * finishing it (here: 'done'), and pauses — with the job's error as the task's run error — a
 * running task whose run job failed (its attempts spent) or was cancelled, instead of leaving it
 * "running" with nothing working on it and no reason shown.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';

let s: TestServer;
let admin: ApiClient;
let datasetId: number;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  const samples = [1, 2, 3].map((i) => ({ input: `Revive question ${i}?`, expected: 'Any answer.' }));
  datasetId = (await admin.ok('POST', 'rating-data-set/create', { name: 'revive set', samples })).id;
});
afterAll(async () => {
  await s?.close();
});

/** a rating task marked running under a job in `state` (as a crash or a spent job leaves it) */
async function runningUnder(state: 'done' | 'failed' | 'cancelled', lastError = ''): Promise<number> {
  const t = await admin.ok('POST', 'rating-task/create', {
    name: `revive ${state}`,
    dataset_id: datasetId,
    prompt: 'Answer.',
    mode: 'schedule',
    scheduled_at: '2099-01-01T00:00:00Z',
  });
  const job = await s.db.query<{ id: number }>(
    `INSERT INTO work_job (kind, title, state, data, last_error, ref_type, ref_id) VALUES ('lab.task-run', 'old run', $1, $2, $3, 'text_rating_task', $4) RETURNING id`,
    [state, JSON.stringify({ table: 'text_rating_task', taskId: t.id }), lastError, t.id],
  );
  await s.db.query(`UPDATE text_rating_task SET status = 'running', started_at = now(), run_job_id = $2 WHERE id = $1`, [t.id, job.rows[0].id]);
  return t.id;
}
const task = async (id: number) =>
  (await s.db.query<{ status: string; run_error: string; done: number; run_job_id: number | null }>(
    `SELECT status, run_error, done, run_job_id FROM text_rating_task WHERE id = $1`,
    [id],
  )).rows[0];

it('a running task whose run job ended without finishing it gets a new run and finishes', async () => {
  const id = await runningUnder('done');
  const t = await until(() => task(id), (r) => r.status === 'finished', 30_000);
  expect(t.done).toBe(3);
});

it('a running task whose run job failed is paused with the job error; one cancelled is paused too', async () => {
  const failed = await runningUnder('failed', 'the model server broke / 模型服务出错');
  const cancelled = await runningUnder('cancelled');
  const f = await until(() => task(failed), (r) => r.status !== 'running', 30_000);
  expect(f).toMatchObject({ status: 'pausing', run_job_id: null });
  expect(f.run_error).toContain('the model server broke');
  const c = await until(() => task(cancelled), (r) => r.status !== 'running', 30_000);
  expect(c.status).toBe('pausing');
  expect(c.run_error).toContain('start the task to resume it');
  // the detail page shows why
  const d = await admin.ok('GET', 'rating-task/detail', { id: failed });
  expect(d.status).toBe('pausing');
});
