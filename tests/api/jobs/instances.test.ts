// @db both — the queue across processes (PostgreSQL only; skips on PGlite)
/**
 * Several processes on one PostgreSQL (TEST_DATABASE_URL): an API + workers instance, a
 * worker-only process (`npm run worker`) and an API-only instance (WORKERS=0). 200 jobs run
 * exactly once between them (their effects are counted); a worker killed with -9 in the middle
 * of a job loses nothing: the job is delivered again and finishes. Skipped on PGlite (one
 * process by design: the data-dir lock). A scheduled rating task starts once and is advanced by
 * one instance at a time (each question asked of the stand-in model once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../harness.js';
import type { ServerProcess } from '../process.js';
import { startModelStandIn, type ModelStandIn } from '../lab/model-standin.js';
import { openRig, runsOn, type Rig } from './rig.js';
import { until } from './until.js';

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('work engine across processes on PostgreSQL', () => {
  let rig: Rig;
  let model: ModelStandIn;
  /** API + workers, worker-only, API-only */
  let both: ServerProcess, workerOnly: ServerProcess, apiOnly: ServerProcess;

  beforeAll(async () => {
    rig = await openRig(pgUrl!);
    const env = { ADMIN_PASSWORD: 'instances-test-password' };
    // the first start migrates; the others start beside it
    both = await rig.spawn({ ...env, WORKERS: '4' });
    [workerOnly, apiOnly] = await Promise.all([rig.spawn({ ...env, WORKERS: '4' }, { entry: 'server/worker.ts' }), rig.spawn({ ...env, WORKERS: '0' })]);
    await rig.connect();
    model = await startModelStandIn(100);
  }, 180_000);

  afterAll(async () => {
    await rig?.close();
    await model?.close();
  });

  it('an API-only instance is ready without running workers', async () => {
    const r = await fetch(`${apiOnly.url}/readyz`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { checks: Record<string, boolean> }).checks).toMatchObject({ queue: true, workers: false });
  });

  it('runs 200 enqueued jobs exactly once across the instances', async () => {
    const markers = Array.from({ length: 200 }, (_, i) => `once-${i}`);
    await rig.enqueueNoop(markers.length, (i) => ({ marker: markers[i] }));
    await until(
      async () => (await rig.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job WHERE state = 'done' AND data->>'marker' LIKE 'once-%'`)).rows[0].n,
      (n) => n === 200,
      60_000,
    );
    const effects = await rig.db.query<{ marker: string; n: number }>(
      `SELECT marker, count(*)::int AS n FROM work_job_effect WHERE marker LIKE 'once-%' GROUP BY marker`,
    );
    expect(effects.rows).toHaveLength(200);
    expect(effects.rows.every((r) => r.n === 1)).toBe(true);
    const workers = await rig.db.query<{ worker_id: string }>(`SELECT DISTINCT worker_id FROM work_job WHERE data->>'marker' LIKE 'once-%'`);
    // the API-only instance never runs a job
    expect(workers.rows.every((w) => !runsOn(apiOnly, w.worker_id))).toBe(true);
  });

  it('a scheduled task starts once and is advanced by one instance at a time', async () => {
    const api = new ApiClient(apiOnly.url);
    expect((await api.post('user/login', { email: 'admin@example.com', password: 'instances-test-password' })).body.code).toBe(10000);
    const server = await api.ok('POST', 'config/model-server/create', { name: 'Slow stand-in', model: 'answer-slow', endpoint: model.baseUrl, timeout_ms: 5000 });
    const samples = Array.from({ length: 30 }, (_, i) => ({ input: `Question number ${i + 1}?`, expected: "The stand-in model's answer." }));
    const ds = await api.ok('POST', 'rating-data-set/create', { name: 'instances set', samples });
    const at = new Date(Date.now() + 4_000).toISOString();
    const t = await api.ok('POST', 'rating-task/create', {
      name: 'instances run',
      dataset_id: ds.id,
      prompt: 'Answer.',
      model_server_id: server.id,
      mode: 'schedule',
      scheduled_at: at,
    });
    expect(t.status).toBe('pending');
    const done = await until(() => api.ok('GET', 'rating-task/detail', { id: t.id }), (d) => d.status === 'finished', 90_000);
    expect(new Date(done.started_at).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime() - 1000);
    const rows = await rig.db.query<{ n: number; d: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT sample_index)::int AS d FROM text_rating_task_result WHERE task_id = $1',
      [t.id],
    );
    expect(rows.rows[0]).toEqual({ n: 30, d: 30 });
    // each question went to the model, whichever instance asked, and never twice at once: a
    // question asked again (a call that ran past its time-out on a loaded machine is retried)
    // was asked after the earlier call had ended, so no two instances advanced the run together
    const asked = model.calls.filter((c) => c.user.includes('Question number'));
    expect(new Set(asked.map((c) => c.user)).size).toBe(30);
    const byQuestion = new Map<string, typeof asked>();
    for (const c of asked) byQuestion.set(c.user, [...(byQuestion.get(c.user) ?? []), c]);
    for (const calls of byQuestion.values()) {
      for (let i = 1; i < calls.length; i++) expect(calls[i].at, `${calls[i].user} asked again while the earlier call was open`).toBeGreaterThanOrEqual(calls[i - 1].end ?? Infinity);
    }
    // the run's jobs (start + any hand-over) never overlapped in time
    const jobs = await rig.db.query<{ started_at: string; finished_at: string; worker_id: string }>(
      `SELECT started_at, finished_at, worker_id FROM work_job WHERE ref_type = 'text_rating_task' AND ref_id = $1 ORDER BY started_at`,
      [t.id],
    );
    expect(jobs.rows.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < jobs.rows.length; i++) {
      expect(new Date(jobs.rows[i].started_at).getTime()).toBeGreaterThanOrEqual(new Date(jobs.rows[i - 1].finished_at).getTime());
    }
  });

  it('a job whose worker is killed with -9 is delivered again and finishes', async () => {
    // only the worker-only process runs jobs now
    await both.stop();
    const [id] = await rig.enqueueNoop(1, () => ({ steps: 40, marker: 'killed' }));
    const running = await until(
      async () => (await rig.db.query<{ state: string; progress_done: number }>(`SELECT state, progress_done FROM work_job WHERE id = $1`, [id])).rows[0],
      (r) => r.state === 'running' && r.progress_done >= 3,
      30_000,
    );
    expect(running.progress_done).toBeLessThan(40);
    await workerOnly.kill9();
    await rig.spawn({ WORKERS: '4' }, { entry: 'server/worker.ts' });
    const done = await until(
      async () =>
        (
          await rig.db.query<{ state: string; attempts: number; interruptions: number; last_error: string }>(
            `SELECT state, attempts, interruptions, last_error FROM work_job WHERE id = $1`,
            [id],
          )
        ).rows[0],
      (r) => r.state === 'done',
      60_000,
    );
    // the kill is counted as an interruption, not as an attempt of the job (issue 20)
    expect(done).toMatchObject({ attempts: 1, interruptions: 1 });
    expect(done.last_error).toContain('interrupted');
    expect((await rig.db.query(`SELECT 1 FROM work_job_effect WHERE marker = 'killed'`)).rows).toHaveLength(1);
  });
});
