// @db both — experiment tasks train through the fine-tuning API (local emulator)
/**
 * A lab experiment task trains through the OpenAI-compatible fine-tuning API (issue 24): its
 * dataset is uploaded as chat-format JSONL (`POST /v1/files`, purpose fine-tune), a job is
 * created with the task's base model and epochs, and the run follows the job's status and
 * events, writing progress as the trainer reports it. The trainer is a local emulator this
 * file starts (train-emulator.ts): the test moves the job, cuts the trainer off, fails a job.
 * Cases: queued → succeeded with progress and its model added as a model server in one click;
 * a lost connection retried (not a failure); a remote failure ends the task with the reason;
 * stop cancels the remote job; no trainer → paused; the dataset's examples are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFieldError } from '../business/helpers.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';
import { startTrainerEmulator, type EmuJob, type TrainerEmulator } from './train-emulator.js';

process.env.TRAINER_POLL_MS = '100';

const EXAMPLES = [
  { messages: [{ role: 'system', content: 'You are a helpful shop assistant.' }, { role: 'user', content: 'Can I return unworn items?' }, { role: 'assistant', content: 'Yes, within 30 days.' }] },
  { messages: [{ role: 'user', content: '可以开发票吗？' }, { role: 'assistant', content: '可以，在订单详情页申请。' }] },
];
const JSONL = EXAMPLES.map((e) => JSON.stringify(e)).join('\n');

let s: TestServer;
let admin: ApiClient;
let emu: TrainerEmulator;
let trainerId: number;
let datasetId: number;

const detail = (id: number) => admin.ok('GET', 'lab/train-task/detail', { id });

async function newTask(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const t = await admin.ok('POST', 'lab/train-task/create', { name, dataset_id: datasetId, base_model: 'qwen2.5-7b', epochs: 2, trainer_server_id: trainerId, mode: 'immediate', ...extra });
  return t.id as number;
}

/** the emulator's job of the task (by the metadata the run sends) */
const jobOf = async (taskId: number): Promise<EmuJob> =>
  (await until(async () => [...emu.jobs.values()].find((j) => j.metadata?.console_task === String(taskId)), (j) => !!j))!;

beforeAll(async () => {
  s = await startServer({ config: { workers: 2 } });
  admin = await s.login();
  emu = await startTrainerEmulator();
  const server = await admin.ok('POST', 'config/model-server/create', {
    name: 'Emulated trainer', model: 'chat-model', endpoint: emu.baseUrl, api_key: emu.apiKey, supports_fine_tuning: true, timeout_ms: 5000,
  });
  trainerId = server.id;
  const ds = await admin.ok('POST', 'lab/dataset/create', { name: 'Chat examples', data_type: 'dialogue', examples_jsonl: JSONL });
  datasetId = ds.id;
});

afterAll(async () => {
  await s?.close();
  await emu?.close();
});

describe('a training run against the fine-tuning API', () => {
  it('uploads the dataset, follows the job from queued to succeeded with progress, and adds its model as a model server', async () => {
    const id = await newTask('Train to success');
    const job = await jobOf(id);
    // the upload: chat-format JSONL with purpose fine-tune, one line per example; the job names it
    const file = emu.files.find((f) => f.id === job.training_file)!;
    expect(file.purpose).toBe('fine-tune');
    expect(file.content.trim().split('\n').map((l) => JSON.parse(l))).toEqual(EXAMPLES);
    expect(job).toMatchObject({ model: 'qwen2.5-7b', hyperparameters: { n_epochs: 2 } });
    expect(emu.counts.refused).toBe(0); // the stored key was sent

    emu.set(job.id, { status: 'queued' });
    await until(() => detail(id), (t) => t.train_status === 'queued');
    emu.set(job.id, { status: 'running', step: 3, total: 10 });
    const running = await until(() => detail(id), (t) => t.progress === 30);
    expect(running).toMatchObject({ status: 'running', train_status: 'running', remote_job_id: job.id, trainer_mode: 'remote', trainer_name: 'Emulated trainer' });

    // the trainer is cut off: the run notes it and keeps trying; the task does not fail
    emu.offline = true;
    const cut = await until(() => detail(id), (t) => t.trainer_note !== '');
    expect(cut.status).toBe('running');
    expect(cut.trainer_note).toMatch(/retrying/);
    emu.offline = false;
    emu.set(job.id, { step: 7, total: 10 });
    await until(() => detail(id), (t) => t.progress === 70 && t.trainer_note === '');

    emu.set(job.id, { status: 'succeeded', model: 'ft:qwen2.5-7b:emulator:task:abcd' });
    const done = await until(() => detail(id), (t) => t.status === 'finished');
    expect(done).toMatchObject({ train_status: 'succeeded', progress: 100, fine_tuned_model: 'ft:qwen2.5-7b:emulator:task:abcd', run_error: '' });
    expect(done.finished_at).toBeTruthy();

    // the trainer's events, each once
    const events = await admin.ok('GET', 'lab/train-event/list', { task_id: id, page_size: 100 });
    const messages = events.list.map((e: { message: string }) => e.message);
    expect(messages).toContain('Step 3/10: training loss=0.250');
    expect(messages).toContain('The job has successfully completed');
    expect(new Set(events.list.map((e: { event_id: string }) => e.event_id)).size).toBe(events.total);
    expect(events.total).toBe(job.events.length);

    // one click: a model server with the fine-tuned model, the trainer's endpoint and key (encrypted, never returned)
    const reg = await admin.ok('POST', 'lab/train-task/register-model', { id });
    expect(reg).toMatchObject({ created: true, sandbox: false });
    const ms = await admin.ok('GET', 'config/model-server/detail', { id: reg.model_server_id });
    expect(ms).toMatchObject({ model: 'ft:qwen2.5-7b:emulator:task:abcd', endpoint: emu.baseUrl, enabled: true, supports_fine_tuning: false });
    expect(ms.key_masked).toMatch(/…/);
    expect(JSON.stringify(ms)).not.toContain(emu.apiKey);
    const enc = await s.db.query<{ a: string; b: string }>(
      'SELECT n.api_key_enc AS a, o.api_key_enc AS b FROM config_model_server n, config_model_server o WHERE n.id = $1 AND o.id = $2',
      [reg.model_server_id, trainerId],
    );
    expect(enc.rows[0].a).toBe(enc.rows[0].b);
    expect(enc.rows[0].a).not.toContain(emu.apiKey);
    // a second click gives the same server
    expect(await admin.ok('POST', 'lab/train-task/register-model', { id })).toMatchObject({ model_server_id: reg.model_server_id, created: false });
    expect((await detail(id)).result_model_server_id).toBe(reg.model_server_id);
  });

  it('ends the task stopped with the reason when the trainer reports the job failed', async () => {
    const id = await newTask('Train to failure');
    const job = await jobOf(id);
    emu.set(job.id, { status: 'running', step: 1, total: 4 });
    await until(() => detail(id), (t) => t.progress === 25);
    emu.set(job.id, { status: 'failed', error: { code: 'invalid_training_file', message: 'Example 2 has no assistant message' } });
    const t = await until(() => detail(id), (x) => x.status === 'stopped');
    expect(t.train_status).toBe('failed');
    expect(t.run_error).toContain('invalid_training_file: Example 2 has no assistant message');
    expect(t.progress).toBe(25);
    const reg = await admin.post('lab/train-task/register-model', { id });
    expect(reg.body.code).toBe(40009);
  });

  it('cancels the remote job when the task is stopped', async () => {
    const id = await newTask('Train then stop');
    const job = await jobOf(id);
    emu.set(job.id, { status: 'running', step: 2, total: 10 });
    await until(() => detail(id), (t) => t.progress === 20);
    const before = emu.counts.cancel;
    await admin.ok('POST', 'lab/train-task/stop', { id });
    const t = await until(() => detail(id), (x) => x.train_status === 'cancelled');
    expect(t.status).toBe('stopped');
    expect(emu.jobs.get(job.id)!.status).toBe('cancelled');
    expect(emu.counts.cancel).toBe(before + 1);
  });

  it('pauses with the reason when no server can fine-tune, and refuses a server that cannot', async () => {
    const chatOnly = await admin.ok('POST', 'config/model-server/create', { name: 'Chat only', model: 'm', endpoint: emu.baseUrl });
    const bad = await admin.post('lab/train-task/create', { name: 'x', dataset_id: datasetId, base_model: 'qwen2.5-7b', trainer_server_id: chatOnly.id });
    expectFieldError(bad, 'trainer_server_id');
    // no trainer chosen and none enabled that can fine-tune
    await admin.ok('POST', 'config/model-server/update', { id: trainerId, enabled: false });
    try {
      const id = await newTask('No trainer', { trainer_server_id: null });
      const t = await until(() => detail(id), (x) => x.status === 'pausing');
      expect(t.run_error).toMatch(/no trainer is connected/);
      expect(t.trainer_mode).toBe('none');
    } finally {
      await admin.ok('POST', 'config/model-server/update', { id: trainerId, enabled: true });
    }
  });

  it('checks the examples of a dataset line by line', async () => {
    const r = await admin.post('lab/dataset/create', { name: 'Bad', data_type: 'dialogue', examples_jsonl: `${JSONL}\n{"messages": [{"role": "user", "content": "only a question"}]}` });
    expectFieldError(r, 'examples_jsonl');
    expect(JSON.stringify(r.body)).toContain('line 3');
    const d = await admin.ok('GET', 'lab/dataset/detail', { id: datasetId });
    expect(d).toMatchObject({ example_count: 2, sample_count: 2 });
    expect(d.examples_jsonl.split('\n').map((l: string) => JSON.parse(l))).toEqual(EXAMPLES);
  });
});
