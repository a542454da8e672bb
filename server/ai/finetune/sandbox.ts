// lang-check: emulated protocol — its error messages are the emulated service's own, in its language (server/http/lang.test.ts)
/**
 * The sandbox trainer: an in-process emulator of the OpenAI-compatible fine-tuning API, used by
 * a model server whose provider is `sandbox` (the demo data has one) instead of any network
 * call. It trains nothing: a job walks validating_files → queued → running (10 steps per epoch,
 * metrics events with a made-up falling loss) → succeeded, on the clock, and names a model
 * `ft:<base>:sandbox:…` that no server can answer with. Pages that show its results say
 * "sandbox" (docs/integrations.md "Trainer").
 *
 * A job's course is read from its id (creation time, epochs), so any process of a deployment
 * answers for it and a restart does not lose it; what cannot be read from an id (the files and
 * jobs listed by metadata, a cancellation) is kept in this process's memory only.
 */
import { randomBytes } from 'node:crypto';
import type { RemoteEvent, RemoteJob, RemoteStatus } from './client.js';

/** the course of a sandbox job (tests shorten it) */
export const SANDBOX_TIMING = { validateMs: 1500, queueMs: 1500, stepMs: 700, stepsPerEpoch: 10 };

const files = new Map<string, { id: string; filename: string; bytes: number; created_at: number }>();
const jobs = new Map<string, { metadata: Record<string, string> }>();
const cancelled = new Map<string, number>();

const rand = () => randomBytes(6).toString('hex');

interface Course {
  id: string;
  createdMs: number;
  epochs: number;
  model: string;
}

/** `ftjob-sandbox-<created ms, base36>-<epochs>-<model, base64url>-<random>` */
function parseId(id: string): Course | null {
  const m = /^ftjob-sandbox-([0-9a-z]+)-(\d{1,3})-([A-Za-z0-9_-]*)-[0-9a-f]+$/.exec(id);
  if (!m) return null;
  return { id, createdMs: parseInt(m[1], 36), epochs: Math.max(1, Number(m[2])), model: Buffer.from(m[3], 'base64url').toString('utf8') };
}

function stateAt(c: Course, now: number) {
  const total = c.epochs * SANDBOX_TIMING.stepsPerEpoch;
  const runFrom = c.createdMs + SANDBOX_TIMING.validateMs + SANDBOX_TIMING.queueMs;
  const endAt = runFrom + total * SANDBOX_TIMING.stepMs;
  const cancelAt = cancelled.get(c.id);
  const t = cancelAt !== undefined ? Math.min(now, cancelAt) : now;
  const step = Math.max(0, Math.min(total, Math.floor((t - runFrom) / SANDBOX_TIMING.stepMs)));
  let status: RemoteStatus =
    t < c.createdMs + SANDBOX_TIMING.validateMs ? 'validating_files' : t < runFrom ? 'queued' : t < endAt ? 'running' : 'succeeded';
  if (cancelAt !== undefined && status !== 'succeeded') status = 'cancelled';
  return { status, step, total, runFrom, endAt };
}

const sec = (ms: number) => Math.floor(ms / 1000);

function jobOf(c: Course, now: number): RemoteJob & Record<string, unknown> {
  const s = stateAt(c, now);
  return {
    object: 'fine_tuning.job',
    id: c.id,
    model: c.model,
    status: s.status,
    created_at: sec(c.createdMs),
    finished_at: s.status === 'succeeded' ? sec(s.endAt) : null,
    fine_tuned_model: s.status === 'succeeded' ? `ft:${c.model}:sandbox::${c.id.slice(-8)}` : null,
    error: null,
    trained_tokens: s.status === 'succeeded' ? s.total * 512 : null,
    training_file: '',
    metadata: jobs.get(c.id)?.metadata ?? null,
    result_files: [],
  };
}

/** The events up to now, newest first (as the API lists them). */
function eventsOf(c: Course, now: number): RemoteEvent[] {
  const s = stateAt(c, now);
  const ev: RemoteEvent[] = [];
  const add = (n: string, at: number, message: string, data?: unknown) =>
    ev.push({ id: `ftevent-${c.id.slice(-12)}-${n}`, created_at: sec(at), level: 'info', message, ...(data ? { type: 'metrics', data } : { type: 'message' }) } as RemoteEvent);
  add('a', c.createdMs, 'Validating training file (sandbox) / 校验训练文件（沙箱）');
  if (s.status === 'validating_files') return ev.reverse();
  add('b', c.createdMs + SANDBOX_TIMING.validateMs, 'Files validated, moving job to queued state / 文件校验通过，任务排队');
  if (s.status !== 'queued' || s.step > 0) {
    if (now >= s.runFrom) add('c', s.runFrom, 'Fine-tuning job started (sandbox: nothing is trained) / 微调开始（沙箱：不做真实训练）');
  }
  for (let i = 1; i <= s.step; i++) {
    const loss = Math.round((2.2 * Math.exp(-i / (s.total / 2)) + 0.15) * 1000) / 1000;
    add(`s${i}`, s.runFrom + i * SANDBOX_TIMING.stepMs, `Step ${i}/${s.total}: training loss=${loss}`, { step: i, total_steps: s.total, train_loss: loss });
  }
  if (s.status === 'succeeded') {
    add('y', s.endAt, `New fine-tuned model created: ${jobOf(c, now).fine_tuned_model} / 已生成微调模型`);
    add('z', s.endAt, 'The job has successfully completed / 任务已完成');
  }
  if (s.status === 'cancelled') add('x', cancelled.get(c.id) ?? now, 'Fine-tuning job cancelled / 微调任务已取消');
  return ev.reverse();
}

const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const notFound = (what: string) => reply(404, { error: { message: `No such ${what}`, type: 'invalid_request_error' } });

/** The multipart upload's file name and line count (the sandbox needs nothing more of it). */
function fileOf(body: string): { filename: string; lines: number } {
  const name = /filename="([^"]*)"/.exec(body)?.[1] ?? 'training.jsonl';
  const lines = body.split('\n').filter((l) => l.trim().startsWith('{')).length;
  return { filename: name, lines };
}

/** A `fetch` that answers the fine-tuning API in this process. */
export const sandboxFetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const method = (init?.method ?? 'GET').toUpperCase();
  init?.signal?.throwIfAborted();
  const path = url.pathname.replace(/^.*?\/(files|fine_tuning)(\/|$)/, '$1$2').replace(/\/+$/, '');
  const now = Date.now();
  const body = typeof init?.body === 'string' ? init.body : init?.body ? Buffer.from(init.body as Uint8Array).toString('utf8') : '';

  if (method === 'POST' && path === 'files') {
    const f = fileOf(body);
    if (!f.lines) return reply(400, { error: { message: 'the training file has no examples' } });
    const rec = { id: `file-sandbox-${rand()}`, filename: f.filename, bytes: body.length, created_at: sec(now) };
    files.set(rec.id, rec);
    return reply(200, { object: 'file', purpose: 'fine-tune', status: 'processed', ...rec });
  }
  if (method === 'GET' && path === 'files') return reply(200, { object: 'list', data: [...files.values()].map((f) => ({ object: 'file', purpose: 'fine-tune', ...f })) });
  if (method === 'POST' && path === 'fine_tuning/jobs') {
    const p = JSON.parse(body || '{}') as { model?: string; training_file?: string; metadata?: Record<string, string>; method?: { supervised?: { hyperparameters?: { n_epochs?: number } } } };
    if (!p.model) return reply(400, { error: { message: 'model is required', param: 'model' } });
    if (!String(p.training_file ?? '').startsWith('file-sandbox-')) return reply(400, { error: { message: 'invalid training_file', param: 'training_file' } });
    const epochs = Math.max(1, Math.min(20, Number(p.method?.supervised?.hyperparameters?.n_epochs) || 3));
    const id = `ftjob-sandbox-${now.toString(36)}-${epochs}-${Buffer.from(p.model.slice(0, 40)).toString('base64url')}-${rand()}`;
    jobs.set(id, { metadata: p.metadata ?? {} });
    return reply(200, jobOf(parseId(id)!, now));
  }
  if (method === 'GET' && path === 'fine_tuning/jobs') {
    const filters = [...url.searchParams].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v]);
    const data = [...jobs.entries()].filter(([, j]) => filters.every(([k, v]) => j.metadata[k] === v)).map(([id]) => jobOf(parseId(id)!, now));
    return reply(200, { object: 'list', data: data.reverse(), has_more: false });
  }
  const m = /^fine_tuning\/jobs\/([^/]+)(?:\/(events|cancel))?$/.exec(path);
  const course = m ? parseId(decodeURIComponent(m[1])) : null;
  if (!m || !course) return notFound(m ? 'job' : 'route');
  if (method === 'GET' && !m[2]) return reply(200, jobOf(course, now));
  if (method === 'GET' && m[2] === 'events') {
    const limit = Math.max(1, Math.min(100, Number(url.searchParams.get('limit')) || 20));
    const all = eventsOf(course, now);
    const after = url.searchParams.get('after');
    const from = after ? all.findIndex((e) => e.id === after) + 1 : 0;
    const page = all.slice(from, from + limit);
    return reply(200, { object: 'list', data: page, has_more: from + limit < all.length });
  }
  if (method === 'POST' && m[2] === 'cancel') {
    const s = stateAt(course, now);
    if (s.status === 'succeeded' || s.status === 'cancelled') return reply(400, { error: { message: `the job is already ${s.status}` } });
    cancelled.set(course.id, now);
    return reply(200, jobOf(course, now));
  }
  return notFound('route');
}) as typeof fetch;
