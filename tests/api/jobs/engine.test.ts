// @db both — the queue (pg-boss) on each engine
/**
 * The work engine on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): jobs
 * enqueued in a transaction run by themselves, once; failures retry then fail with their
 * reason; cancel is honoured while running; a rolled-back enqueue never runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness.js';
import { until } from './until.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

interface JobRow {
  id: number;
  state: string;
  attempts: number;
  last_error: string;
  progress_done: number;
  progress_total: number;
  result: unknown;
}

const job = async (id: number): Promise<JobRow> => (await s.db.query<JobRow>('SELECT * FROM work_job WHERE id = $1', [id])).rows[0];

const enqueue = (data: object, opts = {}) => s.db.tx((q) => s.app.jobs.enqueue(q, 'system.noop', data, opts));

describe('work engine', () => {
  it('runs an enqueued job by itself, with progress, and records the result', async () => {
    const { id } = await enqueue({ steps: 3, marker: 'one' });
    const done = await until(() => job(id), (j) => j.state === 'done');
    expect(done.progress_done).toBe(3);
    expect(done.progress_total).toBe(3);
    expect(done.attempts).toBe(1);
    const effects = await s.db.query('SELECT * FROM work_job_effect WHERE marker = $1', ['one']);
    expect(effects.rows).toHaveLength(1);
  });

  it('never runs a job whose transaction rolled back', async () => {
    await expect(
      s.db.tx(async (q) => {
        await s.app.jobs.enqueue(q, 'system.noop', { marker: 'rolled-back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await enqueue({ marker: 'after' }).then(({ id }) => until(() => job(id), (j) => j.state === 'done'));
    const effects = await s.db.query('SELECT * FROM work_job_effect WHERE marker = $1', ['rolled-back']);
    expect(effects.rows).toHaveLength(0);
    expect((await s.db.query(`SELECT 1 FROM work_job WHERE data->>'marker' = 'rolled-back'`)).rows).toHaveLength(0);
  });

  it('retries a failing job with backoff, then succeeds', async () => {
    const { id } = await enqueue({ failTimes: 1, marker: 'retried' });
    const done = await until(() => job(id), (j) => j.state === 'done', 30_000);
    expect(done.attempts).toBe(2);
    expect(done.last_error).toContain('planned failure 1');
  });

  it('fails with its reason after the last attempt', async () => {
    const { id } = await enqueue({ failTimes: 5 }, { maxAttempts: 2 });
    const failed = await until(() => job(id), (j) => j.state === 'failed', 30_000);
    expect(failed.attempts).toBe(2);
    expect(failed.last_error).toContain('planned failure 2');
  });

  it('cancels a running job within a few seconds and keeps its progress', async () => {
    const { id } = await enqueue({ steps: 200, marker: 'cancelled' });
    await until(() => job(id), (j) => j.state === 'running' && j.progress_done > 0);
    expect(await s.db.tx((q) => s.app.jobs.cancel(q, id))).toBe(true);
    const c = await until(() => job(id), (j) => j.state === 'cancelled', 60_000);
    expect(c.progress_done).toBeGreaterThan(0);
    expect(c.progress_done).toBeLessThan(200);
    expect((await s.db.query('SELECT 1 FROM work_job_effect WHERE marker = $1', ['cancelled'])).rows).toHaveLength(0);
  });

  it('retries a failed job on request', async () => {
    const { id } = await enqueue({ failTimes: 1 }, { maxAttempts: 1 });
    await until(() => job(id), (j) => j.state === 'failed');
    expect(await s.db.tx((q) => s.app.jobs.retry(q, id))).toBe(true);
    const done = await until(() => job(id), (j) => j.state === 'done');
    expect(done.attempts).toBe(2);
  });

  it('answers /healthz and /readyz without a session', async () => {
    const h = await fetch(`${s.url}/healthz`);
    expect(h.status).toBe(200);
    const r = await fetch(`${s.url}/readyz`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { checks: Record<string, boolean> };
    expect(body.checks).toMatchObject({ database: true, migrations: true, queue: true });
  });
});
