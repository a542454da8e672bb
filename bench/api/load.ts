import autocannon from 'autocannon';
import { round } from '../lib/stats.js';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  connections: number;
  /** seconds of measurement, after a warm-up whose figures are dropped: `warmup` seconds, or
   * `{ requests }` completed requests (for slow calls, so none is still running when measuring starts) */
  duration: number;
  warmup: number | { requests: number };
  /** a reply counts as good when this holds (e.g. envelope code 10000) */
  check?: (status: number, body: string) => boolean;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  /** replies that failed `check`, non-2xx, errors and timeouts during measurement */
  bad: number;
  connections: number;
  duration: number;
}

async function once(o: LoadOptions, run: { duration: number } | { amount: number }) {
  let bad = 0;
  const r = await autocannon({
    ...run,
    url: o.url,
    method: o.method ?? 'GET',
    headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
    connections: o.connections,
    timeout: 30,
    requests: o.check
      ? [
          {
            onResponse: (status, body) => {
              if (!o.check!(status, body)) bad++;
            },
          },
        ]
      : undefined,
  });
  return { r, bad: bad + r.errors + r.timeouts + r.non2xx };
}

async function drain(o: LoadOptions): Promise<void> {
  const res = await fetch(o.url, {
    method: o.method ?? 'GET',
    headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
  });
  await res.arrayBuffer();
}

/** Warm-up run (discarded), then the measured run: req/s (mean per second), p50 and p99 latency in ms. */
export async function load(o: LoadOptions): Promise<LoadResult> {
  if (typeof o.warmup === 'number') {
    if (o.warmup > 0) await once(o, { duration: o.warmup });
    // requests cut off by the end of the warm-up may still be queued in the server (PGlite runs
    // one query at a time): one more request answers only once they are done
    await drain(o);
  } else await once(o, { amount: o.warmup.requests });
  const { r, bad } = await once(o, { duration: o.duration });
  return {
    rps: round(r.requests.total / (r.duration || o.duration), 1) ?? 0,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: round(r.latency.average, 2) ?? 0,
    requests: r.requests.total,
    bad,
    connections: o.connections,
    duration: o.duration,
  };
}

/** `{code: 10000}` envelope check for app replies. */
export const envelopeOk = (status: number, body: string): boolean => status === 200 && body.includes('"code":10000');

/** The baseline's reply check: a JSON array of rows. */
export const rowsOk = (status: number, body: string): boolean => status === 200 && body.startsWith('[');

/**
 * Ours and the baseline measured alternately, `rounds` times each with `duration / rounds`
 * seconds per turn (after a warm-up of each), so a change in machine load hits both alike.
 * req/s = all requests ÷ all measured seconds; p50 is the mean of the turns' p50s, p99 the
 * worst turn's p99.
 */
export async function loadPair(ours: LoadOptions, base: LoadOptions, rounds: number): Promise<{ ours: LoadResult; base: LoadResult }> {
  const turns: Array<{ o: LoadOptions; runs: LoadResult[] }> = [
    { o: ours, runs: [] },
    { o: base, runs: [] },
  ];
  for (const t of turns) {
    if (typeof t.o.warmup === 'number') {
      if (t.o.warmup > 0) await once(t.o, { duration: t.o.warmup });
      await drain(t.o);
    } else await once(t.o, { amount: t.o.warmup.requests });
  }
  for (let i = 0; i < rounds; i++) {
    for (const t of turns) {
      const seconds = Math.max(1, Math.round(t.o.duration / rounds));
      const { r, bad } = await once(t.o, { duration: seconds });
      t.runs.push({
        rps: r.requests.total / (r.duration || seconds),
        p50: r.latency.p50,
        p99: r.latency.p99,
        mean: r.latency.average,
        requests: r.requests.total,
        bad,
        connections: t.o.connections,
        duration: r.duration || seconds,
      });
      await drain(t.o);
    }
  }
  const merge = (runs: LoadResult[], o: LoadOptions): LoadResult => {
    const requests = runs.reduce((a, r) => a + r.requests, 0);
    const seconds = runs.reduce((a, r) => a + r.duration, 0);
    return {
      rps: round(requests / seconds, 1) ?? 0,
      p50: round(runs.reduce((a, r) => a + r.p50, 0) / runs.length, 1) ?? 0,
      p99: Math.max(...runs.map((r) => r.p99)),
      mean: round(runs.reduce((a, r) => a + r.mean * r.requests, 0) / Math.max(1, requests), 2) ?? 0,
      requests,
      bad: runs.reduce((a, r) => a + r.bad, 0),
      connections: o.connections,
      duration: round(seconds, 1) ?? 0,
    };
  };
  return { ours: merge(turns[0].runs, ours), base: merge(turns[1].runs, base) };
}
