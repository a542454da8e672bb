// @db both — database outages under running jobs (PostgreSQL only: a TCP proxy cuts the processes off; skips on PGlite)
/**
 * Issue 20: PostgreSQL outages while jobs run on two server processes (`npm start`, each running
 * workers) cost no job and kill no process. The processes reach the database through a TCP
 * proxy started here; cutting it drops every connection and refuses new ones, as a stopped
 * database or a network partition does. Two outages cut the same 50 jobs, 30 s and then 90 s
 * (`OUTAGE_SECONDS` for a single one of another length by hand; `OUTAGE_LOG_LEVEL=info` keeps the
 * processes' closing lines for a failure's message), both longer than the 15 s after
 * which a silent worker counts as gone, so the workers' liveness has to survive them. The jobs
 * are of five kinds, started as users start them (mixed-work.ts): scored runs against a stand-in
 * model and documents to learn (enqueued first: the first cut lands in them), 38 no-op jobs in
 * three shapes (progress writes only, waits inside an open transaction, a planned failure on the
 * first attempt: one attempt spent by the job itself, none by the outages), then exports and
 * notification pushes (queued behind them: they run between and after the cuts). Afterwards:
 * both processes still run, `/readyz` said 503 during the outage and 200 after it, every job is
 * done with its effects counted once (result rows, chunks, export rows, deliveries, markers),
 * none failed, none is left running, no attempt was spent on the outage, and the interruptions
 * are counted apart and shown by the Jobs page's routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../harness.js';
import type { ServerProcess } from '../process.js';
import type { TcpProxy } from './tcp-proxy.js';
import { startModelStandIn, type ModelStandIn } from '../lab/model-standin.js';
import { checkMixed, MIXED_ENV, mixedJobIds, prepareMixed, startLong, startShort, type Mixed } from './mixed-work.js';
import { openRig, type Rig } from './rig.js';
import { until } from './until.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const OUTAGES_MS = (process.env.OUTAGE_SECONDS ? [Number(process.env.OUTAGE_SECONDS)] : [30, 90]).map((s) => s * 1000);
const PASSWORD = 'outage-test-password';
const JOBS = 50;
/** runs and documents, exports and pushes: MIXED of each; the rest are no-op jobs */
const MIXED = 3;
const NOOPS = JOBS - 4 * MIXED;
/** the no-op job's shape: 0 progress only, 1 waits inside an open transaction, 2 fails its first attempt by plan */
const shape = (i: number) => i % 3;

/** why a process ended: its exit, the lines that say so (a close, an error), then the tail of its output */
const why = (p: ServerProcess, tail = 3000): string => {
  const marks = p.output().split('\n').filter((l) => /closing|"level":(50|60)|Error|exited/.test(l) && !l.includes('tick not sent'));
  return `exit ${p.child.exitCode} signal ${p.child.signalCode}\n${marks.slice(0, 20).join('\n')}\n…\n${p.output().slice(-tail)}`;
};

const readyStatus = async (p: ServerProcess): Promise<number> => {
  try {
    return (await fetch(`${p.url}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
};

describe.skipIf(!pgUrl)('a database outage while jobs run on two processes (PostgreSQL)', () => {
  let rig: Rig;
  let proxy: TcpProxy;
  let model: ModelStandIn;

  beforeAll(async () => {
    rig = await openRig(pgUrl!);
    proxy = await rig.proxy();
    // the stand-in model answers each question of the runs after 100 ms (it is not cut off)
    model = await startModelStandIn(100);
    const env = { ADMIN_PASSWORD: PASSWORD, WORKERS: '8', RATE_LIMIT_PER_MINUTE: '0', ...MIXED_ENV, ...(process.env.OUTAGE_LOG_LEVEL ? { LOG_LEVEL: process.env.OUTAGE_LOG_LEVEL } : {}) };
    await rig.spawn(env, { proxy });
    await rig.spawn(env, { proxy });
    // the test's own handle goes straight to the database (the proxy cuts only the processes)
    await rig.connect();
  }, 180_000);

  afterAll(async () => {
    await rig?.close();
    await model?.close();
  });

  it('no process dies, /readyz follows the database, every job finishes once without spending an attempt', async () => {
    // no-op jobs of 3 to 9 s (a progress write every 100 ms), 16 jobs at a time between the two
    // processes; a third wait inside an open transaction, so a cut also lands on checked-out clients
    const { procs, db } = rig;
    const admin = new ApiClient(procs[0].url);
    expect((await admin.post('user/login', { email: 'admin@example.com', password: PASSWORD })).body.code).toBe(10000);
    const setup = await prepareMixed(admin, db, model);
    const mixed: Mixed = { runs: [], docs: [], exports: [], pushes: [] };
    await startLong(admin, setup, MIXED, mixed);
    const noops = await rig.enqueueNoop(NOOPS, (i) => ({
      steps: 30 + (i % 4) * 20,
      marker: `outage-${i}`,
      inTx: shape(i) === 1,
      ...(shape(i) === 2 ? { failTimes: 1 } : {}),
    }));
    await startShort(admin, MIXED, mixed);
    const others = await mixedJobIds(db);
    expect(others).toHaveLength(4 * MIXED);
    const ids = [...noops, ...others];
    /** attempts a job ends with: a planned failure spends the job's own first attempt */
    const attemptsOf = (id: number) => (noops.includes(id) && shape(noops.indexOf(id)) === 2 ? 2 : 1);
    const states = () => rig.states(ids);
    const interruptions = async () => (await rig.rows(ids)).rows.reduce((a, j) => a + j.interruptions, 0);
    const readyAfter: number[] = [];
    for (const outageMs of OUTAGES_MS) {
      await until(states, (s) => (s.running ?? 0) >= 8, 60_000);
      const before = await interruptions();
      proxy.cut();
      const cutAt = Date.now();
      for (const p of procs) {
        await until(() => readyStatus(p), (s) => s === 503 || p.child.exitCode !== null, 20_000);
        expect(p.child.exitCode, `a process exited when the database went away: ${why(p)}`).toBeNull();
      }
      // the outage lasts its full length, longer than the time after which a silent worker is gone
      await new Promise((r) => setTimeout(r, Math.max(0, outageMs - (Date.now() - cutAt))));
      for (const p of procs) expect(p.child.exitCode, `a process exited during the outage: ${why(p)}`).toBeNull();
      expect(await states()).not.toHaveProperty('done', JOBS);
      proxy.restore();

      const back = Date.now();
      for (const p of procs) {
        await until(() => readyStatus(p), (s) => s === 200 || p.child.exitCode !== null, 60_000).catch((err: Error) => {
          throw new Error(`${err.message}; not ready ${Date.now() - back} ms after the database came back: ${why(p, 4000)}`);
        });
        expect(p.child.exitCode, `a process exited when the database came back: ${why(p, 4000)}`).toBeNull();
      }
      readyAfter.push(Date.now() - back);
      // this outage's runs were handed over (each cut interrupts runs of its own: the next cut
      // waits for jobs running again, not for rows still 'running' from this one)
      await until(interruptions, (n) => n > before, 60_000);
    }
    const end = await until(states, (s) => (s.done ?? 0) + (s.failed ?? 0) + (s.cancelled ?? 0) === JOBS, 240_000).catch(async (err: Error) => {
      // name what is left: the jobs not ended, the workers registered, and each process's closing lines
      const left = await db.query(
        `SELECT to_jsonb(j) - 'data' - 'result' AS row, now() AS now FROM work_job j WHERE j.id = ANY($1) AND j.state NOT IN ('done', 'failed', 'cancelled')`,
        [ids],
      );
      const workers = await db.query(`SELECT * FROM work_worker`);
      throw new Error(`${err.message}\nleft: ${JSON.stringify(left.rows)}\nworkers: ${JSON.stringify(workers.rows)}\n${procs.map((p) => why(p, 1500)).join('\n---\n')}`);
    });
    expect(end).toEqual({ done: JOBS });
    // every job of the schema, a run's continuations included: done, none failed, none left running
    const all = async () =>
      Object.fromEntries((await db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM work_job GROUP BY state`)).rows.map((r) => [r.state, r.n]));
    const final = await until(all, (s) => Object.keys(s).every((k) => ['done', 'failed', 'cancelled'].includes(k)), 60_000);
    expect(Object.keys(final)).toEqual(['done']);
    for (const p of procs) expect(p.child.exitCode, why(p)).toBeNull();

    // every effect once: the no-op jobs' markers, and what each other kind wrote
    const effects = await rig.effects('outage-');
    expect(effects).toHaveLength(NOOPS);
    expect(effects.filter((r) => r.n !== 1)).toEqual([]);
    expect(await checkMixed(db, mixed)).toEqual([]);
    // the outage spent no attempt; the jobs it cut off are counted as interrupted
    const jobs = await db.query<{ id: number; kind: string; attempts: number; interruptions: number }>(
      `SELECT id, kind, attempts, interruptions FROM work_job WHERE id = ANY($1) ORDER BY id`,
      [ids],
    );
    expect(jobs.rows.filter((j) => j.attempts !== attemptsOf(j.id))).toEqual([]);
    const interrupted = jobs.rows.filter((j) => j.interruptions > 0);
    expect(interrupted.length).toBeGreaterThan(0);
    // both workers are registered again, and nothing is left running
    const workers = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_worker`);
    expect(workers.rows[0].n).toBe(2);

    // the Jobs page shows both counts (an interrupted job of each kind that was cut)
    const kinds = [...new Set(interrupted.map((j) => j.kind))];
    for (const kind of kinds) {
      const j = interrupted.find((x) => x.kind === kind)!;
      const detail = await admin.ok('GET', 'job/detail', { id: j.id });
      expect(detail).toMatchObject({ attempts: attemptsOf(j.id), interruptions: j.interruptions, state: 'done' });
      const list = await admin.ok('GET', 'job/list', { kind, page_size: 100 });
      expect(list.list.find((x: { id: number }) => x.id === j.id)).toMatchObject({ interruptions: j.interruptions });
    }
    const perKind = [...new Set(jobs.rows.map((j) => j.kind))].map((k) => {
      const js = jobs.rows.filter((j) => j.kind === k);
      return `${k} ${js.length} (${js.filter((j) => j.interruptions > 0).length} interrupted)`;
    });
    // jobs whose claim committed in a cut (its answer lost), given back by their own live worker
    const orphans = procs.reduce((a, p) => a + p.output().split('this process does not run').length - 1, 0);
    console.log(
      `outages ${OUTAGES_MS.map((ms) => ms / 1000).join(' s, ')} s: both processes ready ${readyAfter.join(', ')} ms after the database came back; ${JOBS} jobs done once each: ${perKind.join(', ')}; ${interrupted.reduce((a, j) => a + j.interruptions, 0)} interruptions (${orphans} given back by a live worker), no attempt spent`,
    );
  }, 240_000 + OUTAGES_MS.reduce((a, ms) => a + ms + 120_000, 0));
});
