// @db both — kill -9 during training: the run resumes the same remote job
/**
 * Crash test of a training run (issue 24): the real server trains an experiment task through a
 * local fine-tuning emulator (train-emulator.ts) and is killed with -9 twice — once while the
 * trainer holds the reply to the job's creation (the job exists remotely, the console never
 * heard its id), once while the job is running — and started again on the same data each time.
 * The run finds the job it created by its metadata and follows it to the end: the emulator saw
 * one create call and one upload, and the task finishes with the trainer's model.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../process.js';
import { until } from '../jobs/until.js';
import { BACKENDS, freshDatabase, signIn as signInWith } from './process-runs.js';
import { startTrainerEmulator, type TrainerEmulator } from './train-emulator.js';

const PASSWORD = 'train-crash-password';
const signIn = (url: string) => signInWith(url, PASSWORD);
const EXAMPLES = Array.from({ length: 20 }, (_, i) =>
  JSON.stringify({ messages: [{ role: 'user', content: `Question ${i + 1}?` }, { role: 'assistant', content: `Answer ${i + 1}.` }] }),
).join('\n');

describe.each(BACKENDS)('a training run killed with -9 on %s', (engine, enabled) => {
  const procs: ServerProcess[] = [];
  let cleanup: () => Promise<void> = async () => undefined;
  let emu: TrainerEmulator | null = null;

  afterAll(async () => {
    for (const p of procs) await p.stop().catch(() => undefined);
    await cleanup();
    await emu?.close();
  });

  it.skipIf(!enabled)(
    'follows the same remote job after each restart and never creates a second one',
    async () => {
      const fresh = await freshDatabase(engine, 'train-crash-');
      cleanup = () => fresh.cleanup();
      const env = { ...fresh.env, ADMIN_PASSWORD: PASSWORD, WORKERS: '2', TRAINER_POLL_MS: '100', SECRET_KEY: 'train-crash-test-secret-key' };
      emu = await startTrainerEmulator();
      procs.push(await spawnServer(env));
      let c = await signIn(procs[0].url);
      const trainer = await c.ok('POST', 'config/model-server/create', {
        name: 'Emulated trainer', model: 'chat', endpoint: emu.baseUrl, api_key: emu.apiKey, supports_fine_tuning: true, timeout_ms: 5000,
      });
      const ds = await c.ok('POST', 'lab/dataset/create', { name: 'Crash examples', data_type: 'dialogue', examples_jsonl: EXAMPLES });

      // 1. killed while the trainer holds the reply to the create: the job exists, its id was never heard
      emu.holdCreates = true;
      const task = await c.ok('POST', 'lab/train-task/create', { name: 'Crash run', dataset_id: ds.id, base_model: 'llama-3.1-8b', epochs: 3, trainer_server_id: trainer.id, mode: 'immediate' });
      await until(async () => emu!.counts.create, (n) => n === 1, 60_000);
      const mid1 = await c.ok('GET', 'lab/train-task/detail', { id: task.id });
      expect(mid1.remote_job_id).toBe('');
      await procs[0].kill9();
      emu.holdCreates = false;
      const job = emu.only();

      procs.push(await spawnServer(env));
      c = await signIn(procs[1].url);
      await until(() => c.ok('GET', 'lab/train-task/detail', { id: task.id }), (t) => t.remote_job_id === job.id, 120_000);

      // 2. killed while the job runs
      emu.set(job.id, { status: 'running', step: 4, total: 10 });
      const mid2 = await until(() => c.ok('GET', 'lab/train-task/detail', { id: task.id }), (t) => t.progress === 40, 60_000);
      expect(mid2.status).toBe('running');
      await procs[1].kill9();
      emu.set(job.id, { step: 6, total: 10 });

      procs.push(await spawnServer(env));
      c = await signIn(procs[2].url);
      await until(() => c.ok('GET', 'lab/train-task/detail', { id: task.id }), (t) => t.progress === 60, 120_000);
      emu.set(job.id, { status: 'succeeded' });
      const fin = await until(() => c.ok('GET', 'lab/train-task/detail', { id: task.id }), (t) => t.status === 'finished', 60_000);
      expect(fin).toMatchObject({ train_status: 'succeeded', remote_job_id: job.id, fine_tuned_model: emu.jobs.get(job.id)!.fine_tuned_model, progress: 100 });

      // one job and one file at the trainer, each event recorded once
      expect(emu.counts.create).toBe(1);
      expect(emu.jobs.size).toBe(1);
      expect(emu.counts.upload).toBe(1);
      const events = await c.ok('GET', 'lab/train-event/list', { task_id: task.id, page_size: 100 });
      expect(events.total).toBe(emu.jobs.get(job.id)!.events.length);
    },
    360_000,
  );
});
