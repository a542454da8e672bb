import path from 'node:path';
import { startTsx } from '../lib/proc.js';
import { failed, ratioOf, type Figure, type Suite, type SuiteContext } from '../lib/result.js';
import { API_CASES, queryString, type ApiCase } from './cases.js';
import { benchData, type BenchData } from './data.js';
import { envelopeOk, load, loadPair, rowsOk, type LoadResult } from './load.js';
import { signIn } from './login.js';
import type { RecordedQuery } from './recording-db.js';

interface Ready {
  app: number;
  baseline: number;
  driver: string;
}

interface Capture {
  status: number;
  code: number | null;
  total: number | null;
  estimated: boolean;
  body: string;
  bytes: number;
  queries: RecordedQuery[];
  page: RecordedQuery | null;
}

const post = async <T>(url: string, body: unknown): Promise<T> => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

/** The three figures of one list case: throughput ratio (goal ≥ 0.8) and latencies (p99 goal ≤ 40 ms on PostgreSQL). */
function listFigures(c: ApiCase, ours: LoadResult, base: LoadResult, pg: boolean, detail: Record<string, unknown>): Figure[] {
  const id = `api.${c.id}`;
  const conn = `${ours.connections} conn`;
  return [
    {
      id: `${id}.rps`,
      label: `${c.label} — req/s (${conn})`,
      unit: 'req/s',
      value: ours.rps,
      baseline: base.rps,
      baselineLabel: 'bare Fastify route running only the same page query',
      ratio: ratioOf(ours.rps, base.rps),
      goal: { op: '>=', value: 0.8, on: 'ratio' },
      note: ours.bad ? `${ours.bad} bad replies` : undefined,
      detail,
    },
    { id: `${id}.p50`, label: `${c.label} — p50`, unit: 'ms', value: ours.p50, baseline: base.p50, ratio: ratioOf(ours.p50, base.p50) },
    {
      id: `${id}.p99`,
      label: `${c.label} — p99`,
      unit: 'ms',
      value: ours.p99,
      baseline: base.p99,
      ratio: ratioOf(ours.p99, base.p99),
      goal: { op: '<=', value: 40, on: 'value', when: 'PostgreSQL, 50 conn', applies: pg },
    },
  ];
}

async function runCases(ctx: SuiteContext, data: BenchData, ready: Ready, headers: Record<string, string>): Promise<Figure[]> {
  const app = `http://127.0.0.1:${ready.app}`;
  const baseline = `http://127.0.0.1:${ready.baseline}`;
  const pg = data.driver === 'postgres';
  const timing = ctx.smoke ? { duration: 2, warmup: 1 } : { duration: 12, warmup: 3 };
  const connections = 50;
  const totals = new Map<string, number>();
  const figures: Figure[] = [];
  for (const c of API_CASES) {
    const wanted = ctx.wants(`api.${c.id}`) || API_CASES.some((o) => o.deepOf === c.id && ctx.wants(`api.${o.id}`));
    if (!wanted) continue;
    const query = { ...c.query };
    if (c.deepOf) {
      const total = totals.get(c.deepOf) ?? 0;
      query.page = Math.max(1, Math.floor(total / 2 / Number(query.page_size ?? 10)));
    }
    const url = `/api/admin/${c.path}?${queryString(query)}`;
    const cap = await post<Capture>(`${baseline}/__bench/capture`, { name: c.id, url, headers });
    if (cap.status !== 200 || cap.code !== 10000 || !cap.page) {
      const why = `GET ${url} → HTTP ${cap.status} ${cap.body.slice(0, 160)}${cap.page ? '' : ' (no page query seen)'}`;
      figures.push(failed(`api.${c.id}.rps`, c.label, 'req/s', `not measured: ${why}`));
      continue;
    }
    totals.set(c.id, cap.total ?? 0);
    if (!ctx.wants(`api.${c.id}`)) continue;
    ctx.log(`api ${c.id}: ${url} (${cap.queries.length} statements; total ${cap.total}${cap.estimated ? ' estimated' : ''})`);
    const explain = await post<Array<{ sql: string; plan: string }>>(`${baseline}/__bench/explain`, { queries: cap.queries });
    const { ours, base } = await loadPair(
      { url: app + url, headers, connections, ...timing, check: envelopeOk },
      // checked too, so autocannon does the same work per reply on both sides
      { url: `${baseline}/page/${c.id}`, connections, ...timing, check: rowsOk },
      ctx.smoke ? 1 : 3,
    );
    ctx.log(`  ours ${ours.rps} req/s p99 ${ours.p99} ms — baseline ${base.rps} req/s p99 ${base.p99} ms`);
    const detail = {
      url,
      replyBytes: cap.bytes,
      total: cap.total,
      totalEstimated: cap.estimated,
      statements: cap.queries.map((q) => ({ sql: q.sql, params: q.params, ms: Math.round(q.ms * 100) / 100 })),
      pageQuery: cap.page.sql,
      explain,
      ours,
      baseline: base,
    };
    figures.push(...listFigures(c, ours, base, pg, detail));
  }
  return figures;
}

/**
 * The shop list with the app's workers busy beside it (a stream of no-op jobs through the same
 * process and database) against the same list with them idle, in alternating turns.
 */
async function runWithWorkers(ctx: SuiteContext, ready: Ready, headers: Record<string, string>): Promise<Figure> {
  const c = API_CASES[0];
  const url = `http://127.0.0.1:${ready.app}/api/admin/${c.path}?${queryString(c.query)}`;
  const baseline = `http://127.0.0.1:${ready.baseline}`;
  const seconds = ctx.smoke ? 2 : 4;
  const idle: LoadResult[] = [];
  const busy: LoadResult[] = [];
  let jobs = 0;
  for (let i = 0; i < (ctx.smoke ? 1 : 3); i++) {
    idle.push(await load({ url, headers, connections: 50, duration: seconds, warmup: 1, check: envelopeOk }));
    await post(`${baseline}/__bench/jobs/start`, { perSecond: 20 });
    try {
      busy.push(await load({ url, headers, connections: 50, duration: seconds, warmup: 1, check: envelopeOk }));
    } finally {
      jobs = (await post<{ done: number }>(`${baseline}/__bench/jobs/stop`, {})).done;
    }
  }
  const rps = (rs: LoadResult[]) => rs.reduce((a, r) => a + r.rps, 0) / rs.length;
  ctx.log(`api workers: shop list ${Math.round(rps(busy))} req/s with jobs running, ${Math.round(rps(idle))} idle (${jobs} jobs done)`);
  return {
    id: 'api.workers.shop-list',
    label: `${c.label} — req/s with the app's workers running up to 20 no-op jobs/s beside it`,
    unit: 'req/s',
    value: Math.round(rps(busy)),
    baseline: Math.round(rps(idle)),
    baselineLabel: 'the same list with the workers idle (same process, alternating turns)',
    ratio: ratioOf(rps(busy), rps(idle)),
    goal: { op: '>=', value: 0.95, on: 'ratio' },
    note: `${jobs} jobs done during the busy turns`,
    detail: { idle, busy },
  };
}

async function runLogin(ctx: SuiteContext, data: BenchData, ready: Ready): Promise<Figure> {
  // one scrypt verification takes 0.5 s or more here: warm up by count, so no cut-off request
  // still holds the thread pool when measuring starts
  const connections = ctx.smoke ? 2 : 4;
  const timing = { duration: ctx.smoke ? 2 : 15, warmup: { requests: connections } };
  const body = { email: data.adminEmail, password: data.adminPassword };
  const ours = await load({ url: `http://127.0.0.1:${ready.app}/api/admin/user/login`, method: 'POST', body, connections, ...timing, check: envelopeOk });
  const base = await load({ url: `http://127.0.0.1:${ready.baseline}/scrypt`, method: 'POST', body: { password: data.adminPassword }, connections, ...timing });
  ctx.log(`api login: ${ours.rps}/s — bare scrypt check ${base.rps}/s`);
  return {
    id: 'api.login.rps',
    label: `POST user/login — sign-ins per second (${connections} conn; bounded by scrypt N=2^17 on purpose)`,
    unit: 'req/s',
    value: ours.rps,
    baseline: base.rps,
    baselineLabel: 'bare Fastify route doing only the scrypt verification',
    ratio: ratioOf(ours.rps, base.rps),
    note: ours.requests === 0 ? 'no sign-in completed within the window' : ours.bad ? `${ours.bad} bad replies` : undefined,
    detail: { ours, baseline: base },
  };
}

export const apiSuite: Suite = {
  id: 'api',
  title: 'API (autocannon against the real app and a bare Fastify baseline)',
  async run(ctx) {
    const data = await benchData(ctx);
    ctx.facts.apiDriver = data.driver;
    ctx.facts.apiData = { scale: data.scale, counts: data.counts };
    const child = startTsx(path.join(ctx.root, 'bench/api/server-child.ts'), [], data.env, ctx.root);
    try {
      const ready = await child.message<Ready>('BENCH_READY', 5 * 60_000);
      const session = await signIn(`http://127.0.0.1:${ready.app}`, data.adminEmail, data.adminPassword);
      const figures = await runCases(ctx, data, ready, session.headers);
      if (ctx.wants('api.workers')) figures.push(await runWithWorkers(ctx, ready, session.headers));
      if (ctx.wants('api.login')) figures.push(await runLogin(ctx, data, ready));
      return figures;
    } finally {
      await child.stop();
    }
  },
};
