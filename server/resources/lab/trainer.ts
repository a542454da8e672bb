/**
 * The trainer of lab experiment tasks (docs/modules/lab.md "Runs", docs/integrations.md
 * "Trainer"): which server trains a task, and the remote steps of a run — upload the dataset,
 * create the fine-tuning job, follow it — each recorded before and after it is taken, so a run
 * that resumes after a crash finds a step whose reply was lost on the trainer instead of taking
 * it twice (the file by its name, the job by its metadata `console_run`).
 */
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../db/db.js';
import { FineTuneClient, TrainerError, progressOf, type RemoteEvent, type RemoteJob, type RemoteStatus } from '../../ai/finetune/client.js';
import { sandboxFetch } from '../../ai/finetune/sandbox.js';
import { decryptSecret, SecretUnreadable } from '../../ai/secrets.js';
import { outboundFetch } from '../../http/outbound.js';
import { examplesFile, type ChatExample } from './trainer-examples.js';

export const SANDBOX_PROVIDER = 'sandbox';

/** how often a followed job is read (TRAINER_POLL_MS; tests shorten it) and the longest wait after failed calls */
export const trainerPollMs = (): number => Math.max(50, Number(process.env.TRAINER_POLL_MS) || 5000);
export const MAX_BACKOFF_MS = 30_000;

export interface TrainTask {
  id: number;
  name: string;
  status: string;
  dataset_id: number;
  base_model: string;
  epochs: number;
  trainer_server_id: number | null;
  train_status: string;
  remote_server_id: number | null;
  remote_key: string;
  upload_started_at: string | null;
  remote_file_id: string;
  create_started_at: string | null;
  remote_job_id: string;
  fine_tuned_model: string;
}
export const TASK_COLS = `t.id, t.name, t.status, t.dataset_id, t.base_model, t.epochs, t.trainer_server_id, t.train_status, t.remote_server_id,
  t.remote_key, t.upload_started_at, t.remote_file_id, t.create_started_at, t.remote_job_id, t.fine_tuned_model`;

export interface Trainer {
  serverId: number;
  name: string;
  sandbox: boolean;
  client: FineTuneClient;
}

/** A failure the run cannot get past by waiting: the task ends failed with it. */
export class TrainFailure extends Error {}

/**
 * The server that trains `task`: the one its remote steps already went to, else the task's
 * choice, else the first enabled server that supports fine-tuning. Null: none is configured.
 */
export async function trainerFor(db: Queryable, task: TrainTask, signal?: AbortSignal): Promise<Trainer | null> {
  const id = task.remote_server_id ?? task.trainer_server_id;
  const r = await db.query<{ id: number; name: string; provider: string; endpoint: string; api_key_enc: string; timeout_ms: number }>(
    `SELECT id, name, provider, endpoint, api_key_enc, timeout_ms FROM config_model_server
      WHERE ${id ? 'id = $1' : 'enabled AND supports_fine_tuning ORDER BY id LIMIT 1'}`,
    id ? [id] : [],
  );
  const s = r.rows[0];
  if (!s) return null;
  let apiKey = '';
  try {
    apiKey = decryptSecret(s.api_key_enc);
  } catch (e) {
    if (e instanceof SecretUnreadable) throw new TrainFailure(`the trainer's API key cannot be read: ${e.message}`);
    throw e;
  }
  const sandbox = s.provider === SANDBOX_PROVIDER;
  const client = new FineTuneClient({ endpoint: s.endpoint, apiKey, timeoutMs: Math.max(5000, s.timeout_ms || 30000), fetch: sandbox ? sandboxFetch : outboundFetch }, signal);
  return { serverId: s.id, name: s.name, sandbox, client };
}

const fileName = (task: TrainTask) => `console-train-${task.id}-${task.remote_key}.jsonl`;

/** One step forward: upload, create, or read the job and its new events. */
export type Step = { kind: 'uploaded' | 'created' } | { kind: 'polled'; job: RemoteJob; events: RemoteEvent[] };

/**
 * Takes the next remote step of the run held by job `me` and records it. Throws TrainerError
 * (the caller retries transient ones) or TrainFailure.
 */
export async function advance(db: Db, task: TrainTask, trainer: Trainer, me: number): Promise<Step> {
  const set = async (sql: string, params: unknown[]) => {
    const r = await db.query(`UPDATE lab_train_task SET ${sql}, updated_at = now() WHERE id = $1 AND run_job_id = $2 RETURNING id`, [task.id, me, ...params]);
    if (!r.rows.length) throw new TrainerError('transient', 'the run no longer holds the task / 运行已不再持有该任务');
  };
  if (!task.remote_key) {
    task.remote_key = randomBytes(12).toString('hex');
    task.remote_server_id = trainer.serverId;
    await set(`remote_key = $3, remote_server_id = $4, train_status = 'uploading'`, [task.remote_key, trainer.serverId]);
  }
  if (!task.remote_file_id) {
    if (task.upload_started_at) {
      // an upload was sent before and its reply not recorded: the trainer may hold the file
      const found = (await trainer.client.listFiles()).find((f) => f.filename === fileName(task));
      if (found) {
        task.remote_file_id = found.id;
        await set(`remote_file_id = $3`, [found.id]);
        return { kind: 'uploaded' };
      }
    }
    const ds = await db.query<{ examples: ChatExample[] }>('SELECT examples FROM lab_dataset WHERE id = $1', [task.dataset_id]);
    const examples = ds.rows[0]?.examples ?? [];
    if (!examples.length) {
      throw new TrainFailure('the dataset holds no training examples (add them as chat-format JSON lines on the dataset) / 数据集没有训练样本（请在数据集中以对话格式 JSON Lines 添加）');
    }
    await set(`upload_started_at = now()`, []);
    task.upload_started_at = new Date().toISOString();
    const f = await trainer.client.uploadFile(fileName(task), examplesFile(examples));
    task.remote_file_id = f.id;
    await set(`remote_file_id = $3`, [f.id]);
    return { kind: 'uploaded' };
  }
  if (!task.remote_job_id) {
    if (task.create_started_at) {
      // a create was sent before and its reply not recorded: adopt the job it made, if any
      const found = await trainer.client.findJobs('console_run', task.remote_key);
      if (found.length) {
        await recordJobId(task, found[0], set);
        return { kind: 'created' };
      }
    }
    await set(`create_started_at = now()`, []);
    task.create_started_at = new Date().toISOString();
    const job = await trainer.client.createJob({
      model: task.base_model,
      training_file: task.remote_file_id,
      suffix: `task-${task.id}`,
      metadata: { console_run: task.remote_key, console_task: String(task.id) },
      n_epochs: task.epochs,
    });
    await recordJobId(task, job, set);
    return { kind: 'created' };
  }
  const job = await trainer.client.getJob(task.remote_job_id);
  const known = new Set(
    (await db.query<{ event_id: string }>('SELECT event_id FROM lab_train_event WHERE task_id = $1 AND remote_job_id = $2', [task.id, task.remote_job_id])).rows.map((r) => r.event_id),
  );
  const events = await trainer.client.newEvents(task.remote_job_id, (id) => known.has(id));
  return { kind: 'polled', job, events };
}

async function recordJobId(task: TrainTask, job: RemoteJob, set: (sql: string, p: unknown[]) => Promise<void>): Promise<void> {
  task.remote_job_id = job.id;
  await set(`remote_job_id = $3, train_status = $4`, [job.id, job.status]);
}

/** Writes what a read of the job brought (status, new events, progress); the progress written, or null. */
export async function recordPoll(db: Db, task: TrainTask, me: number, job: RemoteJob, events: RemoteEvent[]): Promise<{ step: number; total: number } | null> {
  return db.tx(async (q) => {
    let latest: { step: number; total: number; percent: number } | null = null;
    for (const e of events) {
      const ins = await q.query(
        `INSERT INTO lab_train_event (task_id, remote_job_id, event_id, level, type, message, data, reported_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, to_timestamp($8)) ON CONFLICT (task_id, event_id) DO NOTHING RETURNING id`,
        [task.id, job.id, e.id.slice(0, 200), String(e.level ?? 'info').slice(0, 10), String(e.type ?? 'message').slice(0, 20), String(e.message ?? '').slice(0, 2000),
          e.data === undefined ? null : JSON.stringify(e.data), Number(e.created_at) || 0],
      );
      const p = progressOf(e);
      if (ins.rows.length && p) latest = p;
    }
    const percent = job.status === 'succeeded' ? 100 : latest?.percent ?? null;
    await q.query(
      `UPDATE lab_train_task SET train_status = $3, fine_tuned_model = $4, trained_tokens = $5, trainer_contact_at = now(), trainer_note = '',
              progress = COALESCE($6, progress), updated_at = now()
        WHERE id = $1 AND run_job_id = $2`,
      [task.id, me, job.status, String(job.fine_tuned_model ?? '').slice(0, 200), job.trained_tokens ?? null, percent],
    );
    return latest ? { step: latest.step, total: latest.total } : job.status === 'succeeded' ? { step: 1, total: 1 } : null;
  });
}

/** The reason of a job the trainer reports failed. */
export const failureOf = (job: RemoteJob): string => {
  const e = job.error;
  const why = [e?.code, e?.message].filter(Boolean).join(': ').slice(0, 1000) || 'no reason given';
  return `the trainer reports the fine-tuning job ${job.id} failed: ${why} / 训练服务报告微调任务失败：${why}`;
};

/** A note while the trainer does not answer (the run goes on trying). */
export const unreachableNote = (e: TrainerError): string => `${e.message.slice(0, 800)}; retrying / 正在重试`;

export const isFinal = (s: string): s is Extract<RemoteStatus, 'succeeded' | 'failed' | 'cancelled'> => s === 'succeeded' || s === 'failed' || s === 'cancelled';
