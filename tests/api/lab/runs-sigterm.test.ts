// @db both — SIGTERM during a run: the hand-over on each engine
/**
 * Issue 20: SIGTERM in the middle of a scored run. The server process finishes the question it
 * is on, hands the run's job over (queued again, its attempt given back, one interruption
 * counted) and exits; the task stays running with no run error. Started again, the run goes on
 * from the next question: every question is asked of the model once — none twice, since the
 * stop let the one in flight finish — and each has one result row.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../process.js';
import { until } from '../jobs/until.js';
import { startModelStandIn, type ModelStandIn } from './model-standin.js';
import { BACKENDS, freshDatabase, signIn as signInWith } from './process-runs.js';

const PASSWORD = 'runs-sigterm-password';
const N = 80;
const signIn = (url: string) => signInWith(url, PASSWORD);

describe.each(BACKENDS)('SIGTERM during a run on %s', (name, enabled) => {
  const procs: ServerProcess[] = [];
  let cleanup: () => Promise<void> = async () => undefined;
  let model: ModelStandIn | null = null;

  afterAll(async () => {
    for (const p of procs) await p.stop().catch(() => undefined);
    await cleanup();
    await model?.close();
  });

  it.skipIf(!enabled)(
    'hands the run over without spending an attempt; after the restart every question is asked once',
    async () => {
      const fresh = await freshDatabase(name, 'runs-sigterm-');
      cleanup = () => fresh.cleanup();
      // the stand-in model listens on 127.0.0.1: a private address the server calls only when allowed
      const env = { ...fresh.env, ADMIN_PASSWORD: PASSWORD, WORKERS: '2', OUTBOUND_ALLOW_PRIVATE: '1' };
      model = await startModelStandIn(20);
      procs.push(await spawnServer(env));
      let c = await signIn(procs[0].url);
      const server = await c.ok('POST', 'config/model-server/create', { name: 'Stand-in', model: 'answer-sigterm', endpoint: model.baseUrl, timeout_ms: 30000 });
      const samples = Array.from({ length: N }, (_, i) => ({ input: `SIGTERM question ${i + 1}?`, expected: "The stand-in model's answer." }));
      const ds = await c.ok('POST', 'rating-data-set/create', { name: 'SIGTERM set', samples });
      const task = await c.ok('POST', 'rating-task/create', {
        name: 'SIGTERM run', dataset_id: ds.id, prompt: 'Answer briefly.', model_server_id: server.id, mode: 'immediate',
      });
      const mid = await until(() => c.ok('GET', 'rating-task/detail', { id: task.id }), (t) => t.done >= 10, 60_000);
      expect(mid.status).toBe('running');
      await procs[0].stop();
      expect(procs[0].child.exitCode).toBe(0);

      procs.push(await spawnServer(env));
      c = await signIn(procs[1].url);
      const fin = await until(() => c.ok('GET', 'rating-task/detail', { id: task.id }), (t) => t.status === 'finished', 120_000);
      expect(fin).toMatchObject({ done: N, total: N, run_error: '' });
      const res = await c.ok('GET', 'rating-task/result/list', { task_id: task.id, page_size: 500 });
      expect(res.total).toBe(N);
      expect(new Set(res.list.map((r: { sample_index: number }) => r.sample_index)).size).toBe(N);
      // the question in flight finished before the exit: none was asked twice
      const asked = model.calls.filter((x) => x.model === 'answer-sigterm');
      expect(asked).toHaveLength(N);
      // the run's jobs: the stop was an interruption, no attempt was spent on it
      const jobs = await c.ok('GET', 'job/list', { ref_type: 'text_rating_task', ref_id: task.id, page_size: 50 });
      const runs = jobs.list as Array<{ state: string; attempts: number; interruptions: number }>;
      expect(runs.every((j) => j.state === 'done' && j.attempts === 1)).toBe(true);
      expect(runs.reduce((a, j) => a + j.interruptions, 0)).toBe(1);
    },
    240_000,
  );
});
