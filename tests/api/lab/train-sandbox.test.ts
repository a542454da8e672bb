// @db once — the demo data trains in the sandbox
/**
 * Demo mode of the trainer (issue 24): with the demo data, experiment tasks name the sandbox
 * trainer (a model server of provider `sandbox`: server/ai/finetune/sandbox.ts, in process, no
 * network), so a newcomer sees a run go from queued to succeeded with progress and events; every
 * result says "sandbox" (the task's trainer mode, the events, the model server it adds, which is
 * added disabled: the sandbox trains nothing and that model cannot answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TIMING } from '../../../server/ai/finetune/sandbox.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';

process.env.TRAINER_POLL_MS = '100';
Object.assign(SANDBOX_TIMING, { validateMs: 300, queueMs: 300, stepMs: 50 }); // the server runs in this process

let s: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  s = await startServer({ seedDemo: true, config: { workers: 2 } });
  admin = await s.login();
}, 180_000);
afterAll(async () => s?.close());

describe('the sandbox trainer with the demo data', () => {
  it('trains a demo task to success with progress, says sandbox, and adds its model disabled', async () => {
    const running = await admin.ok('GET', 'lab/train-task/list', { status: 'running', page_size: 100 });
    expect(running.total).toBeGreaterThan(0);
    const id = running.list[0].id as number;
    expect(running.list[0].trainer_mode).toBe('sandbox');
    const seen = new Set<number>();
    const fin = await until(
      async () => {
        const t = await admin.ok('GET', 'lab/train-task/detail', { id });
        if (t.train_status === 'running') seen.add(t.progress);
        return t;
      },
      (t) => t.status !== 'running',
      120_000,
    );
    expect(fin).toMatchObject({ status: 'finished', train_status: 'succeeded', progress: 100, trainer_mode: 'sandbox' });
    expect(fin.fine_tuned_model).toMatch(/^ft:.+:sandbox:/);
    expect([...seen].some((p) => p > 0 && p < 100)).toBe(true);
    const events = await admin.ok('GET', 'lab/train-event/list', { task_id: id, page_size: 500 });
    expect(events.list.some((e: { message: string }) => /sandbox/.test(e.message))).toBe(true);
    expect(events.list.some((e: { message: string }) => /^Step \d+\/\d+/.test(e.message))).toBe(true);

    const reg = await admin.ok('POST', 'lab/train-task/register-model', { id });
    expect(reg).toMatchObject({ created: true, sandbox: true });
    const ms = await admin.ok('GET', 'config/model-server/detail', { id: reg.model_server_id });
    expect(ms).toMatchObject({ provider: 'sandbox', enabled: false, model: fin.fine_tuned_model });
    expect(ms.name).toMatch(/Sandbox/);
  }, 180_000);
});
