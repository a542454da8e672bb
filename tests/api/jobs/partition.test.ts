// @db both — a network partition between one worker and the database (PostgreSQL only; skips on PGlite)
/**
 * Issue 20: two worker processes, each reaching PostgreSQL through a TCP proxy of its own; one
 * of them is cut off while it runs jobs (a partition: the database and the other worker are
 * fine). After 15 s without its heartbeat the other worker — itself connected without a break
 * for long enough — judges it gone and takes its jobs over, as interruptions (no attempt spent).
 * When the link heals, the cut-off worker is still alive, registers again, and its old runs
 * write nothing (every write of a running job is fenced by its worker): each job is done once.
 * The cut is made while every job is seconds from its end, so no effect can have been written by
 * a run that is then taken over (docs/operations.md "Faults": the partition row).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../process.js';
import type { TcpProxy } from './tcp-proxy.js';
import { openRig, runsOn, type Rig } from './rig.js';
import { until } from './until.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const JOBS = 4;
const STEPS = 300;

describe.skipIf(!pgUrl)('a partition between one worker and the database (PostgreSQL)', () => {
  let rig: Rig;
  const proxies: TcpProxy[] = [];
  let cutOff: ServerProcess;
  let other: ServerProcess;

  beforeAll(async () => {
    rig = await openRig(pgUrl!);
    proxies.push(await rig.proxy(), await rig.proxy());
    cutOff = await rig.spawn({ WORKERS: '4' }, { entry: 'server/worker.ts', proxy: proxies[0] });
    await rig.connect();
  }, 180_000);

  afterAll(() => rig?.close());

  const rows = (ids: number[]) => rig.rows(ids);
  const on = runsOn;

  it("the other worker takes the cut-off worker's jobs; when the link heals nothing runs twice", async () => {
    const ids = await rig.enqueueNoop(JOBS, (i) => ({ steps: STEPS, marker: `partition-${i}` }), { maxAttempts: 1 });
    // the first worker takes them all; then the other one starts
    await until(() => rows(ids), (r) => r.rows.every((j) => j.state === 'running' && on(cutOff, j.worker_id)), 60_000);
    other = await rig.spawn({ WORKERS: '8' }, { entry: 'server/worker.ts', proxy: proxies[1] });
    // the cut comes while each job is well before its end (seconds away from writing its effect)
    const before = await rows(ids);
    expect(before.rows.filter((j) => j.state !== 'running' || j.progress_done > STEPS - 30)).toEqual([]);
    proxies[0].cut();
    const stranded = before.rows.map((j) => j.id);
    // taken over by the other worker once the cut-off one is judged gone
    await until(() => rows(stranded), (r) => r.rows.every((j) => j.state === 'done' || on(other, j.worker_id)), 90_000);
    expect(cutOff.child.exitCode).toBeNull();
    proxies[0].restore();

    const end = await until(() => rows(ids), (r) => r.rows.every((j) => ['done', 'failed', 'cancelled'].includes(j.state)), 90_000);
    expect(end.rows.map((j) => j.state)).toEqual(ids.map(() => 'done'));
    expect(end.rows.map((j) => j.attempts)).toEqual(ids.map(() => 1));
    expect(end.rows.filter((j) => stranded.includes(j.id)).every((j) => j.interruptions >= 1)).toBe(true);
    expect(await rig.effects('partition-')).toEqual(ids.map((_, i) => ({ marker: `partition-${i}`, n: 1 })).sort((a, b) => a.marker.localeCompare(b.marker)));
    // the cut-off worker lived through it and is registered again
    await until(async () => (await rig.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_worker WHERE pid = $1`, [cutOff.child.pid])).rows[0].n, (n) => n === 1, 30_000);
    expect(cutOff.child.exitCode).toBeNull();
    console.log(`partition: ${stranded.length} of ${JOBS} jobs were on the cut-off worker, taken over and done once`);
  }, 300_000);
});
