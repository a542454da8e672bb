/**
 * A local emulator of the OpenAI fine-tuning API for the trainer tests (the trainer is outside
 * the system under test), written from the public protocol and apart from the console's own
 * sandbox: `POST /v1/files` (multipart: purpose, file), `GET /v1/files`, `POST /v1/fine_tuning/jobs`,
 * `GET /v1/fine_tuning/jobs` (metadata filter, `after`), `GET /v1/fine_tuning/jobs/{id}`,
 * `GET /v1/fine_tuning/jobs/{id}/events` (newest first, `limit`, `after`) and
 * `POST /v1/fine_tuning/jobs/{id}/cancel`. Nothing moves by itself: the test moves a job
 * (`set`), makes the trainer unreachable (`offline`), or holds a create's reply (`holdCreates`).
 * Every call is counted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// a trainer on 127.0.0.1 is a private target: allowed for this process and the servers it spawns
// (as an operator with a trainer on the LAN would; see model-standin.ts)
process.env.OUTBOUND_ALLOW_PRIVATE = '1';

type Status = 'validating_files' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface EmuJob {
  id: string;
  object: 'fine_tuning.job';
  model: string;
  status: Status;
  training_file: string;
  fine_tuned_model: string | null;
  error: { code: string; message: string; param: string | null } | null;
  trained_tokens: number | null;
  metadata: Record<string, string> | null;
  created_at: number;
  finished_at: number | null;
  hyperparameters: { n_epochs: number | 'auto' };
  method: unknown;
  suffix?: string;
  events: Array<{ object: 'fine_tuning.job.event'; id: string; created_at: number; level: string; message: string; type: string; data?: unknown }>;
}

export interface EmuFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: number;
  content: string;
}

export interface TrainerEmulator {
  baseUrl: string;
  apiKey: string;
  files: EmuFile[];
  jobs: Map<string, EmuJob>;
  counts: { upload: number; create: number; get: number; events: number; cancel: number; list: number; listFiles: number; refused: number };
  /** every request is cut off (socket destroyed) while true */
  offline: boolean;
  /** creates are recorded but not answered while true (the connection stays open) */
  holdCreates: boolean;
  /** moves a job: a status, a step of total_steps (a metrics event), an error */
  set(id: string, change: { status?: Status; step?: number; total?: number; error?: { code: string; message: string }; model?: string }): void;
  only(): EmuJob;
  close(): Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);

function multipart(body: Buffer, type: string): { fields: Record<string, string>; file?: { filename: string; content: string } } {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  const out: { fields: Record<string, string>; file?: { filename: string; content: string } } = { fields: {} };
  if (!boundary) return out;
  const parts = body.toString('utf8').split(`--${boundary[1] ?? boundary[2]}`);
  for (const part of parts) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const value = part.slice(split + 4).replace(/\r\n$/, '');
    const name = /name="([^"]*)"/.exec(head)?.[1];
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    if (filename !== undefined) out.file = { filename, content: value };
    else if (name) out.fields[name] = value;
  }
  return out;
}

export async function startTrainerEmulator(opts: { apiKey?: string } = {}): Promise<TrainerEmulator> {
  const apiKey = opts.apiKey ?? 'sk-emulator-key-123456';
  let seq = 0;
  const held: http.ServerResponse[] = [];
  const emu: TrainerEmulator = {
    baseUrl: '',
    apiKey,
    files: [],
    jobs: new Map(),
    counts: { upload: 0, create: 0, get: 0, events: 0, cancel: 0, list: 0, listFiles: 0, refused: 0 },
    offline: false,
    holdCreates: false,
    set(id, change) {
      const j = emu.jobs.get(id);
      if (!j) throw new Error(`no job ${id}`);
      const ev = (message: string, extra: object = {}) =>
        j.events.push({ object: 'fine_tuning.job.event', id: `ftevent-${++seq}`, created_at: now(), level: 'info', message, type: 'message', ...extra });
      if (change.step !== undefined) {
        const total = change.total ?? 10;
        ev(`Step ${change.step}/${total}: training loss=${(1 / (change.step + 1)).toFixed(3)}`, { type: 'metrics', data: { step: change.step, total_steps: total, train_loss: 1 / (change.step + 1) } });
      }
      if (change.status && change.status !== j.status) {
        j.status = change.status;
        if (change.status === 'succeeded') {
          j.fine_tuned_model = change.model ?? `ft:${j.model}:emulator:${j.suffix ?? ''}:${j.id.slice(-4)}`;
          j.trained_tokens = 12345;
          j.finished_at = now();
          ev(`New fine-tuned model created: ${j.fine_tuned_model}`);
          ev('The job has successfully completed');
        } else if (change.status === 'failed') {
          j.error = { code: change.error?.code ?? 'server_error', message: change.error?.message ?? 'failed', param: null };
          j.finished_at = now();
          ev(`Fine-tuning job failed: ${j.error.message}`, { level: 'error' });
        } else ev(`Job moved to ${change.status}`);
      }
    },
    only() {
      if (emu.jobs.size !== 1) throw new Error(`${emu.jobs.size} jobs, expected 1`);
      return [...emu.jobs.values()][0];
    },
    async close() {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const err = (res: http.ServerResponse, status: number, message: string, param: string | null = null) =>
    send(res, status, { error: { message, type: 'invalid_request_error', param, code: null } });
  const publicJob = (j: EmuJob) => {
    const { events: _e, suffix: _s, ...rest } = j;
    return rest;
  };

  const server = http.createServer((req, res) => {
    if (emu.offline) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://x');
      const p = url.pathname;
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        emu.counts.refused++;
        return err(res, 401, 'Incorrect API key provided');
      }
      if (req.method === 'POST' && p === '/v1/files') {
        emu.counts.upload++;
        const form = multipart(body, String(req.headers['content-type'] ?? ''));
        if (form.fields.purpose !== 'fine-tune') return err(res, 400, 'purpose must be fine-tune', 'purpose');
        if (!form.file) return err(res, 400, 'file is required', 'file');
        const f: EmuFile = { id: `file-emu${++seq}`, filename: form.file.filename, purpose: 'fine-tune', bytes: Buffer.byteLength(form.file.content), content: form.file.content };
        emu.files.push(f);
        return send(res, 200, { object: 'file', id: f.id, bytes: f.bytes, created_at: now(), filename: f.filename, purpose: f.purpose, status: 'processed' });
      }
      if (req.method === 'GET' && p === '/v1/files') {
        emu.counts.listFiles++;
        const purpose = url.searchParams.get('purpose');
        return send(res, 200, {
          object: 'list',
          data: emu.files.filter((f) => !purpose || f.purpose === purpose).map(({ content: _c, ...f }) => ({ object: 'file', created_at: now(), status: 'processed', ...f })),
        });
      }
      if (req.method === 'POST' && p === '/v1/fine_tuning/jobs') {
        emu.counts.create++;
        let b: { model?: string; training_file?: string; metadata?: Record<string, string>; suffix?: string; method?: { supervised?: { hyperparameters?: { n_epochs?: number } } } };
        try {
          b = JSON.parse(body.toString('utf8'));
        } catch {
          return err(res, 400, 'the body is not JSON');
        }
        if (!b.model) return err(res, 400, 'model is required', 'model');
        if (!emu.files.some((f) => f.id === b.training_file)) return err(res, 400, `invalid training_file: ${b.training_file}`, 'training_file');
        const id = `ftjob-emu${++seq}`;
        const j: EmuJob = {
          id, object: 'fine_tuning.job', model: b.model, status: 'validating_files', training_file: String(b.training_file), fine_tuned_model: null, error: null,
          trained_tokens: null, metadata: b.metadata ?? null, created_at: now(), finished_at: null,
          hyperparameters: { n_epochs: b.method?.supervised?.hyperparameters?.n_epochs ?? 'auto' }, method: b.method ?? null, suffix: b.suffix, events: [],
        };
        j.events.push({ object: 'fine_tuning.job.event', id: `ftevent-${++seq}`, created_at: now(), level: 'info', message: `Created fine-tuning job: ${id}`, type: 'message' });
        emu.jobs.set(id, j);
        if (emu.holdCreates) {
          held.push(res);
          return; // recorded, never answered: the caller sees the connection die with the test's kill
        }
        return send(res, 200, publicJob(j));
      }
      if (req.method === 'GET' && p === '/v1/fine_tuning/jobs') {
        emu.counts.list++;
        const filters = [...url.searchParams].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v] as const);
        const all = [...emu.jobs.values()].reverse().filter((j) => filters.every(([k, v]) => j.metadata?.[k] === v));
        const after = url.searchParams.get('after');
        const from = after ? all.findIndex((j) => j.id === after) + 1 : 0;
        const limit = Number(url.searchParams.get('limit') ?? 20);
        return send(res, 200, { object: 'list', data: all.slice(from, from + limit).map(publicJob), has_more: from + limit < all.length });
      }
      const m = /^\/v1\/fine_tuning\/jobs\/([^/]+)(?:\/(events|cancel))?$/.exec(p);
      const j = m ? emu.jobs.get(decodeURIComponent(m[1])) : undefined;
      if (!m) return err(res, 404, 'Invalid URL');
      if (!j) return err(res, 404, `No such fine-tuning job: ${m[1]}`);
      if (req.method === 'GET' && !m[2]) {
        emu.counts.get++;
        return send(res, 200, publicJob(j));
      }
      if (req.method === 'GET' && m[2] === 'events') {
        emu.counts.events++;
        const all = [...j.events].reverse();
        const after = url.searchParams.get('after');
        const from = after ? all.findIndex((e) => e.id === after) + 1 : 0;
        const limit = Number(url.searchParams.get('limit') ?? 20);
        return send(res, 200, { object: 'list', data: all.slice(from, from + limit), has_more: from + limit < all.length });
      }
      if (req.method === 'POST' && m[2] === 'cancel') {
        emu.counts.cancel++;
        if (['succeeded', 'failed', 'cancelled'].includes(j.status)) return err(res, 400, `Job ${j.id} has already completed`);
        emu.set(j.id, { status: 'cancelled' });
        return send(res, 200, publicJob(j));
      }
      return err(res, 404, 'Invalid URL');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  emu.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return emu;
}
