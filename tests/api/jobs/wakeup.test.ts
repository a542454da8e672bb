// @db both — LISTEN/NOTIFY between processes (PostgreSQL only; skips on PGlite)
/**
 * Issue 20: a job enqueued on an API-only instance wakes an idle worker process at once
 * (PostgreSQL LISTEN/NOTIFY) instead of waiting for its poll. The worker here polls once a
 * minute (JOBS_POLL_SECONDS=60), so a job that starts within seconds was started by the
 * notification, not by the poll — no timing bound tighter than the machine's load allows is
 * needed to tell. The LISTEN connection survives the database going away: after the worker was
 * cut off (a TCP proxy) and connected again, an enqueue still wakes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../process.js';
import type { TcpProxy } from './tcp-proxy.js';
import { openRig, type Rig } from './rig.js';
import { until } from './until.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const WOKEN_WITHIN_MS = 20_000;

describe.skipIf(!pgUrl)('an enqueue anywhere wakes an idle worker (PostgreSQL)', () => {
  let rig: Rig;
  let proxy: TcpProxy;
  let worker: ServerProcess;

  beforeAll(async () => {
    rig = await openRig(pgUrl!);
    proxy = await rig.proxy();
    worker = await rig.spawn({ WORKERS: '2', JOBS_POLL_SECONDS: '60' }, { entry: 'server/worker.ts', proxy });
    await rig.connect();
  }, 180_000);

  afterAll(() => rig?.close());

  /** enqueues one job from this process and waits until it is done; its enqueue → start time */
  async function startDelay(marker: string): Promise<number> {
    const [id] = await rig.enqueueNoop(1, () => ({ marker }));
    const r = await until(
      async () => (await rig.db.query<{ state: string; ms: number }>(
        `SELECT state, extract(epoch FROM (started_at - created_at)) * 1000 AS ms FROM work_job WHERE id = $1`,
        [id],
      )).rows[0],
      (j) => j.state === 'done',
      WOKEN_WITHIN_MS,
    );
    return Number(r.ms);
  }

  it('starts jobs enqueued elsewhere long before the next poll, also after the worker lost the database', async () => {
    // the worker started (its first fetch found nothing): it now sleeps for a minute between polls
    const before = [];
    for (let i = 0; i < 5; i++) before.push(await startDelay(`wake-${i}`));
    proxy.cut();
    // the worker notices (its heartbeat fails), then the database is back
    await until(async () => worker.output(), (out) => out.includes('heartbeat failed'), 30_000);
    proxy.restore();
    await until(async () => (await rig.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_worker WHERE seen_at > now() - interval '3 seconds'`)).rows[0].n, (n) => n === 1, 30_000);
    const after = [];
    for (let i = 0; i < 5; i++) after.push(await startDelay(`wake-after-${i}`));
    expect(worker.child.exitCode).toBeNull();
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`enqueue → start on an idle worker (poll 60 s): p50 ${p50(before).toFixed(0)} ms before the cut, ${p50(after).toFixed(0)} ms after; all: ${[...before, ...after].map((x) => x.toFixed(0)).join(', ')} ms`);
  }, 180_000);
});
