/**
 * Child process for the API bench: opens the bench database once, then serves
 * - the real app (buildApp, every route, sessions, access, validation, envelope) on one port;
 * - the baseline on another: a bare Fastify that runs only a captured page query with the same
 *   driver and returns the rows, plus a bare scrypt check for the login baseline;
 * - control routes under /__bench/ on the baseline port (capture, explain).
 * Prints `BENCH_READY {"app":port,"baseline":port,"driver":...}`. SIGTERM closes the database.
 */
import { Session } from 'node:inspector/promises';
import Fastify from 'fastify';
import { buildApp } from '../../server/app.js';
import { verifyPassword } from '../../server/auth/password.js';
import { loadConfig } from '../../server/config.js';
import { openDb } from '../../server/db/open.js';
import { getSchemaStore, loadSchemas } from '../../server/schemas/index.js';
import { pageQuery, recordingDb, type RecordedQuery } from './recording-db.js';

// the bench calls far faster than people do: the request limit (still counted in its store) and
// the sessions per account are set out of its reach
const config = { ...loadConfig(), logLevel: 'silent', port: 0, rateLimitPerMinute: 1e9, rateLimitLoginPerMinute: 1e9, sessionsPerAccount: 1e9 };
const raw = await openDb(config);
const rec = recordingDb(raw);
// the schema routes read the store loaded at start; load it here unless the app does it itself
try {
  getSchemaStore();
} catch {
  await loadSchemas(undefined, { watch: false });
}
const app = await buildApp({ config, db: rec.db });
await app.listen({ port: 0, host: '127.0.0.1' });

const cases = new Map<string, RecordedQuery>();
const base = Fastify({ logger: false });

base.get<{ Params: { name: string } }>('/page/:name', async (req) => {
  const q = cases.get(req.params.name);
  if (!q) throw new Error(`no captured query for ${req.params.name}`);
  const r = await raw.query(q.sql, q.params);
  return r.rows;
});

const hashRow = await raw.query<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE email = $1', [config.adminEmail]);
const adminHash = hashRow.rows[0]?.password_hash ?? '';
base.post<{ Body: { password: string } }>('/scrypt', async (req) => ({ ok: await verifyPassword(req.body.password, adminHash) }));

/** Runs one request through the app with SQL recording on; remembers its page query as `name`. */
base.post<{ Body: { name: string; url: string; headers: Record<string, string> } }>('/__bench/capture', async (req) => {
  const { name, url, headers } = req.body;
  const { result, queries } = await rec.record(() => app.inject({ method: 'GET', url, headers }));
  const page = pageQuery(queries);
  if (page) cases.set(name, page);
  let code: number | null = null;
  let total: number | null = null;
  let estimated = false;
  try {
    const env = JSON.parse(result.body) as { code?: number; data?: { total?: number; total_estimated?: boolean } };
    code = env.code ?? null;
    total = env.data?.total ?? null;
    estimated = env.data?.total_estimated ?? false;
  } catch {
    /* not JSON: reported through `body` */
  }
  return { status: result.statusCode, code, total, estimated, body: result.body.slice(0, 600), bytes: result.body.length, queries, page: page ?? null };
});

/** EXPLAIN (ANALYZE, BUFFERS) of every statement one request ran, for docs/performance.md. */
base.post<{ Body: { queries: RecordedQuery[] } }>('/__bench/explain', async (req) => {
  const out: Array<{ sql: string; plan: string }> = [];
  for (const q of req.body.queries) {
    if (!/^\s*SELECT\b/i.test(q.sql)) continue;
    const r = await raw.query<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params);
    out.push({ sql: q.sql, plan: r.rows.map((row) => Object.values(row)[0]).join('\n') });
  }
  return out;
});

/**
 * A steady stream of no-op jobs through the app's own work engine (enqueued here, run by the
 * app's workers in this process), so list figures can be taken with workers busy beside them.
 */
let jobStream = false;
base.post<{ Body: { perSecond: number } }>('/__bench/jobs/start', async (req) => {
  const every = Math.max(5, Math.round(1000 / Math.max(1, req.body.perSecond)));
  jobStream = true;
  // one enqueue at a time (never a growing backlog of transactions), then the pause
  void (async () => {
    while (jobStream) {
      await raw.tx((q) => app.jobs.enqueue(q, 'system.noop', { tag: 'bench' })).catch(() => undefined);
      await new Promise((r) => setTimeout(r, every));
    }
  })();
  return { ok: true, runsWorkers: app.jobs.runsWorkers };
});
base.post('/__bench/jobs/stop', async () => {
  jobStream = false;
  const r = await raw.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job WHERE state = 'done' AND data->>'tag' = 'bench'`);
  return { done: r.rows[0]?.n ?? 0 };
});

/** CPU time this process has used so far (µs), to set against requests served (bench/api/profile.ts). */
base.get('/__bench/cpu', async () => process.cpuUsage());

/** CPU profile of this process between start and stop (bench/api/profile.ts; never used by the bench itself). */
let inspector: Session | null = null;
base.post('/__bench/profile/start', async () => {
  inspector = new Session();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
  await inspector.post('Profiler.start');
  return { ok: true };
});
base.post('/__bench/profile/stop', async () => {
  if (!inspector) throw new Error('no profile running');
  const { profile } = await inspector.post('Profiler.stop');
  inspector.disconnect();
  inspector = null;
  return profile;
});

await base.listen({ port: 0, host: '127.0.0.1' });
const port = (s: typeof base) => {
  const a = s.server.address();
  return typeof a === 'object' && a ? a.port : 0;
};
console.log(`BENCH_READY ${JSON.stringify({ app: port(app as unknown as typeof base), baseline: port(base), driver: raw.kind })}`);

let closing = false;
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.on(sig, () => {
    if (closing) return;
    closing = true;
    void (async () => {
      await Promise.allSettled([app.close(), base.close()]);
      await raw.close();
      process.exit(0);
    })();
  });
}
