// @db both — kill -9 during a run: recovery on each engine
/**
 * Crash test of a scored run: the real server (`node --import tsx server/server.ts`) runs a
 * rating task over a few hundred questions; it is killed with -9 in the middle, started again
 * on the same data (PGlite data dir, or the same PostgreSQL schema when TEST_DATABASE_URL is
 * set), and the task finishes by itself with exactly one result row per question. The answers
 * come from a stand-in model server in this process (about 15 ms each), so the run lasts some
 * seconds whatever the machine; the built-in responder alone answers 300 questions in a blink.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../process.js';
import { until } from '../jobs/until.js';
import { startModelStandIn, type ModelStandIn } from './model-standin.js';
import { BACKENDS, freshDatabase, signIn as signInWith } from './process-runs.js';

const PASSWORD = 'runs-crash-password';
const N = 300;

const POLICIES: Array<[string, string]> = [
  ['Returns', 'Unworn items can be returned within 30 days of delivery for a full refund.'],
  ['Shipping', 'We ship to Canada. Delivery to Canada takes 5 to 8 business days.'],
  ['发票', '可以开具电子发票，请在订单详情页点击申请发票。'],
];
const QUESTIONS: Array<[string, string]> = [
  ['Can I return unworn items?', 'Unworn items can be returned within 30 days of delivery for a full refund.'],
  ['How long does delivery to Canada take?', 'Delivery to Canada takes 5 to 8 business days.'],
  ['可以开发票吗？', '可以开具电子发票，请在订单详情页点击申请发票。'],
];

const signIn = (url: string) => signInWith(url, PASSWORD);

describe.each(BACKENDS)('a run killed with -9 on %s', (_name, enabled) => {
  const procs: ServerProcess[] = [];
  let cleanup: () => Promise<void> = async () => undefined;
  let model: ModelStandIn | null = null;

  afterAll(async () => {
    for (const p of procs) await p.stop().catch(() => undefined);
    await cleanup();
    await model?.close();
  });

  it.skipIf(!enabled)(
    'finishes after a restart with one result row per question',
    async () => {
      const fresh = await freshDatabase(_name, 'runs-crash-');
      let env = fresh.env;
      cleanup = () => fresh.cleanup();
      env = { ...env, ADMIN_PASSWORD: PASSWORD, WORKERS: '2' };
      procs.push(await spawnServer(env));
      let c = await signIn(procs[0].url);
      model = await startModelStandIn(15);
      const server = await c.ok('POST', 'config/model-server/create', { name: 'Stand-in', model: 'answer-crash', endpoint: model.baseUrl, timeout_ms: 30000 });
      await c.ok('POST', 'exit-code/create', { code: 'resolved', need_semantics_score: 1 });
      await c.ok('POST', 'exit-code/create', { code: 'no_answer', need_semantics_score: 0 });
      const shop = await c.ok('POST', 'shop/create', { name: 'Crash shop', type: 1 });
      for (const [title, content] of POLICIES) {
        await c.ok('POST', 'shop/policy/create', { shop_id: shop.id, title, content, source_type: 1, channel: 'chat', status: 1 });
      }
      const samples = Array.from({ length: N }, (_, i) => ({ input: `${QUESTIONS[i % 3][0]} (#${i + 1})`, expected: QUESTIONS[i % 3][1] }));
      const ds = await c.ok('POST', 'rating-data-set/create', { name: 'Crash set', samples });
      const task = await c.ok('POST', 'rating-task/create', {
        name: 'Crash run', dataset_id: ds.id, shop_id: shop.id, prompt: 'Answer briefly.', model_server_id: server.id, mode: 'immediate',
      });

      const mid = await until(() => c.ok('GET', 'rating-task/detail', { id: task.id }), (t) => t.done >= 20, 60_000);
      expect(mid.status).toBe('running');
      await procs[0].kill9();
      expect(mid.done).toBeLessThan(N);

      procs.push(await spawnServer(env));
      c = await signIn(procs[1].url);
      const after = await c.ok('GET', 'rating-task/detail', { id: task.id });
      expect(after.done).toBeGreaterThanOrEqual(mid.done);
      expect(after.done).toBeLessThan(N);
      const fin = await until(() => c.ok('GET', 'rating-task/detail', { id: task.id }), (t) => t.status === 'finished', 120_000);
      expect(fin).toMatchObject({ done: N, total: N, progress: 100 });
      const res = await c.ok('GET', 'rating-task/result/list', { task_id: task.id, page_size: 500 });
      expect(res.total).toBe(N);
      const idx = res.list.map((r: { sample_index: number }) => r.sample_index);
      expect(new Set(idx).size).toBe(N);
      expect(idx).toEqual(Array.from({ length: N }, (_, i) => i + 1));
      expect(res.list.every((r: { responder: string; output: string }) => r.responder === 'model' && r.output === "The stand-in model's answer.")).toBe(true);
      // the model was asked each question once, plus at most the ones in flight when the server died
      const asked = model.calls.filter((x) => x.model === 'answer-crash').length;
      expect(asked).toBeGreaterThanOrEqual(N);
      expect(asked).toBeLessThanOrEqual(N + 2);
      // the run's jobs: the kill was an interruption, no attempt was spent on it (issue 20)
      const jobs = await c.ok('GET', 'job/list', { ref_type: 'text_rating_task', ref_id: task.id, page_size: 50 });
      const runs = jobs.list as Array<{ state: string; attempts: number; interruptions: number }>;
      expect(runs.length).toBeGreaterThan(0);
      expect(runs.filter((j) => j.state !== 'done' || j.attempts !== 1)).toEqual([]);
      expect(runs.reduce((a, j) => a + j.interruptions, 0)).toBe(1);
    },
    240_000,
  );
});
