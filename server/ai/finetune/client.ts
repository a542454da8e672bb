/**
 * A client of the OpenAI-compatible fine-tuning API (docs/integrations.md "Trainer"): upload a
 * chat-format JSONL file (`POST /files`, purpose `fine-tune`), create a job
 * (`POST /fine_tuning/jobs`), read it (`GET /fine_tuning/jobs/{id}`), its events
 * (`GET /fine_tuning/jobs/{id}/events`, newest first) and cancel it
 * (`POST /fine_tuning/jobs/{id}/cancel`); list files and jobs to find a step whose reply was lost.
 * Paths are relative to the server's endpoint (`https://api.openai.com/v1`, `http://host/v1`).
 *
 * The caller hands in the `fetch` to use: `outboundFetch` (the outbound-call policy) for a real
 * trainer, the in-process sandbox's for the sandbox. Failures are classified: `transient` (no
 * connection, timeout, 5xx, 408, 429 — try again later), `missing` (404), `rejected` (any other
 * answer: the request itself is refused). Messages are bilingual and never hold the key.
 */
import { describeOutboundError } from '../../http/outbound.js';

export const JOB_STATUSES = ['validating_files', 'queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type RemoteStatus = (typeof JOB_STATUSES)[number];

export interface RemoteFile {
  id: string;
  filename: string;
  purpose: string;
  bytes?: number;
}

export interface RemoteJob {
  id: string;
  status: RemoteStatus;
  model: string;
  fine_tuned_model: string | null;
  error: { code?: string | null; message?: string | null; param?: string | null } | null;
  trained_tokens: number | null;
  training_file?: string;
  metadata?: Record<string, string> | null;
}

export interface RemoteEvent {
  id: string;
  created_at: number;
  level: 'info' | 'warn' | 'error';
  message: string;
  type?: 'message' | 'metrics';
  data?: unknown;
}

export interface TrainerTarget {
  /** base URL with the version, e.g. https://api.openai.com/v1 */
  endpoint: string;
  apiKey: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

export type TrainerFailure = 'transient' | 'missing' | 'rejected';

export class TrainerError extends Error {
  constructor(
    readonly kind: TrainerFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'TrainerError';
  }
}

export interface CreateJobParams {
  model: string;
  training_file: string;
  suffix?: string;
  metadata?: Record<string, string>;
  n_epochs?: number;
}

const short = (s: unknown, n = 300): string => String(s ?? '').replace(/\s+/g, ' ').slice(0, n);

export class FineTuneClient {
  constructor(
    private readonly t: TrainerTarget,
    private readonly signal?: AbortSignal,
  ) {}

  private url(path: string): string {
    return `${this.t.endpoint.replace(/\/+$/, '')}/${path}`;
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: { json?: unknown; raw?: Uint8Array; type?: string }): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.t.apiKey) headers.authorization = `Bearer ${this.t.apiKey}`;
    let payload: BodyInit | undefined;
    if (body?.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body?.raw) {
      headers['content-type'] = body.type ?? 'application/octet-stream';
      payload = body.raw as unknown as BodyInit;
    }
    const signals = [AbortSignal.timeout(this.t.timeoutMs)];
    if (this.signal) signals.push(this.signal);
    let res: Response;
    try {
      res = await this.t.fetch(this.url(path), { method, headers, body: payload, signal: AbortSignal.any(signals) });
    } catch (e) {
      if (this.signal?.aborted) throw e;
      const d = describeOutboundError(e);
      throw new TrainerError(d.kind === 'policy' ? 'rejected' : 'transient', `${method} ${path.split('?')[0]}: ${d.message}`);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      const kind: TrainerFailure = res.status === 404 ? 'missing' : res.status >= 500 || res.status === 408 || res.status === 429 ? 'transient' : 'rejected';
      let detail = '';
      try {
        detail = short((JSON.parse(text) as { error?: { message?: unknown } }).error?.message);
      } catch {
        /* not JSON: the status says enough */
      }
      throw new TrainerError(kind, `${method} ${path.split('?')[0]}: HTTP ${res.status}${detail ? ` (${detail})` : ''} / 训练服务返回 HTTP ${res.status}`, res.status);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new TrainerError('transient', `${method} ${path.split('?')[0]}: the reply is not JSON / 训练服务的回复不是 JSON`);
    }
  }

  /** `POST /files` (multipart: purpose, file) with the JSONL text. */
  async uploadFile(filename: string, jsonl: string): Promise<RemoteFile> {
    const boundary = `----console-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
    const safe = filename.replace(/["\r\n]/g, '_');
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nfine-tune\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safe}"\r\nContent-Type: application/jsonl\r\n\r\n`;
    const raw = Buffer.concat([Buffer.from(head), Buffer.from(jsonl), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const f = await this.call<RemoteFile>('POST', 'files', { raw: new Uint8Array(raw), type: `multipart/form-data; boundary=${boundary}` });
    if (!f || typeof f.id !== 'string') throw new TrainerError('transient', 'POST files: the reply has no file id / 上传回复缺少文件 ID');
    return f;
  }

  /** `GET /files?purpose=fine-tune`: the fine-tuning files the trainer holds. */
  async listFiles(): Promise<RemoteFile[]> {
    const r = await this.call<{ data?: RemoteFile[] }>('GET', 'files?purpose=fine-tune');
    return Array.isArray(r?.data) ? r.data : [];
  }

  /** `POST /fine_tuning/jobs` (supervised, with the epochs when given). */
  async createJob(p: CreateJobParams): Promise<RemoteJob> {
    const body: Record<string, unknown> = { model: p.model, training_file: p.training_file };
    if (p.suffix) body.suffix = p.suffix;
    if (p.metadata) body.metadata = p.metadata;
    if (p.n_epochs) body.method = { type: 'supervised', supervised: { hyperparameters: { n_epochs: p.n_epochs } } };
    return checkJob(await this.call<RemoteJob>('POST', 'fine_tuning/jobs', { json: body }), 'POST fine_tuning/jobs');
  }

  /**
   * Jobs whose metadata holds `key = value` (`GET /fine_tuning/jobs?metadata[key]=value`, and
   * checked here too: a trainer that ignores the filter lists every job; up to 5 pages).
   */
  async findJobs(key: string, value: string): Promise<RemoteJob[]> {
    const found: RemoteJob[] = [];
    let after = '';
    for (let page = 0; page < 5; page++) {
      const q = `limit=100&metadata[${encodeURIComponent(key)}]=${encodeURIComponent(value)}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const r = await this.call<{ data?: RemoteJob[]; has_more?: boolean }>('GET', `fine_tuning/jobs?${q}`);
      const data = Array.isArray(r?.data) ? r.data : [];
      found.push(...data.filter((j) => j?.metadata?.[key] === value));
      if (!r?.has_more || !data.length) break;
      after = data[data.length - 1].id;
    }
    return found;
  }

  async getJob(id: string): Promise<RemoteJob> {
    return checkJob(await this.call<RemoteJob>('GET', `fine_tuning/jobs/${encodeURIComponent(id)}`), 'GET fine_tuning/jobs/{id}');
  }

  /**
   * The job's events newer than the ones in `known` (ids), oldest first: pages of the newest
   * 100 (`after` goes to older ones) until a known event or the end (at most 5 pages).
   */
  async newEvents(id: string, known: (eventId: string) => boolean): Promise<RemoteEvent[]> {
    const out: RemoteEvent[] = [];
    let after = '';
    for (let page = 0; page < 5; page++) {
      const r = await this.call<{ data?: RemoteEvent[]; has_more?: boolean }>(
        'GET',
        `fine_tuning/jobs/${encodeURIComponent(id)}/events?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`,
      );
      const data = (Array.isArray(r?.data) ? r.data : []).filter((e) => e && typeof e.id === 'string');
      let reachedKnown = false;
      for (const e of data) {
        if (known(e.id)) {
          reachedKnown = true;
          break;
        }
        out.push(e);
      }
      if (reachedKnown || !r?.has_more || !data.length) break;
      after = data[data.length - 1].id;
    }
    // pages come newest first: reversed, then (stable) by time in case a trainer lists oldest first
    return out.reverse().sort((a, b) => (Number(a.created_at) || 0) - (Number(b.created_at) || 0));
  }

  async cancelJob(id: string): Promise<RemoteJob> {
    return checkJob(await this.call<RemoteJob>('POST', `fine_tuning/jobs/${encodeURIComponent(id)}/cancel`), 'POST fine_tuning/jobs/{id}/cancel');
  }
}

function checkJob(j: RemoteJob, what: string): RemoteJob {
  if (!j || typeof j.id !== 'string' || !(JOB_STATUSES as readonly string[]).includes(j.status)) {
    throw new TrainerError('transient', `${what}: the reply is not a fine-tuning job / 回复不是微调任务`);
  }
  return j;
}

/** Training progress 0–100 from a metrics event's data (`step` of `total_steps`), or null. */
export function progressOf(e: RemoteEvent): { step: number; total: number; percent: number } | null {
  const d = e.data as { step?: unknown; total_steps?: unknown } | undefined;
  const step = Number(d?.step);
  const total = Number(d?.total_steps);
  if (!Number.isFinite(step) || !Number.isFinite(total) || total <= 0 || step < 0) return null;
  return { step, total, percent: Math.max(0, Math.min(100, Math.floor((step / total) * 100))) };
}
