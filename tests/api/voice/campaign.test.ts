// @db both — the campaign scheduler on the queue and its locks
/**
 * Call campaigns with the default dry-run dialer, on a controlled clock (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL): no call before the call window opens, calls when the clock enters
 * it, redials per the scene's rule (interval, at most N times), the task finishes when every
 * number is done; a task pauses at its latest call time and resumes the next day at the window
 * start in its own time zone (Asia/Shanghai, America/New_York in summer time); pause and stop
 * are honoured; every attempt is marked as a dry run in the call log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledClock } from '../../../server/jobs/clock.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';
import { attempts, auditActions, makeNumber, makeScene, makeTask, targets, task, ticks, untilAttempts, untilRoundEnded } from './campaign-helpers.js';

const MIN = 60_000;
const DRY = 'not dialled (dry run) / 未拨打（演练）';

let s: TestServer;
let admin: ApiClient;
const clock = new ControlledClock('2026-11-22T23:00:00Z');
let numberId: number;

beforeAll(async () => {
  delete process.env.TELEPHONY_PROVIDER;
  s = await startServer({ clock });
  admin = await s.login();
  numberId = await makeNumber(admin, '+86 21 5555 0101');
});
afterAll(async () => s?.close());

describe('call campaign (dry-run dialer)', () => {
  it('names the dry-run dialer as active', async () => {
    expect(await admin.ok('GET', 'call-center/dialer')).toMatchObject({ name: 'dry-run', dry_run: true, ready: true, problems: [] });
  });

  it('refuses bad numbers to call and a window that does not open before the latest call time', async () => {
    const sceneId = await makeScene(admin, { time_zone: 'Asia/Shanghai' });
    const base = { scene_id: sceneId, number_ids: [numberId], latest_call_time: '20:00' };
    const bad = await admin.post('call-center/task/create', { ...base, name: 'Bad', mode: 'manual', callees: '13800000001\nnot a phone\n138-0000-0001' });
    expect(bad.body.code).toBe(40001);
    expect(bad.body.msg).toContain('line 2');
    expect(bad.body.msg).toContain('line 3: 138-0000-0001 is already on line 1');
    const late = await admin.post('call-center/task/create', { ...base, name: 'Late', mode: 'manual', window_start: '20:30' });
    expect(late.body.code).toBe(40001);
    expect(JSON.stringify(late.body.data)).toContain('window_start');
    expect((await s.db.query("SELECT 1 FROM call_task WHERE name IN ('Bad', 'Late')")).rows).toHaveLength(0);
  });

  it('calls only inside the window, redials per the scene rule at most N times, and finishes', async () => {
    const sceneId = await makeScene(admin, { time_zone: 'Asia/Shanghai', redial_times: 2, redial_interval_minutes: 30, silent_seconds: 7, silent_times: 3 });
    clock.set('2026-11-22T23:00:00Z'); // 07:00 on Nov 23 in Shanghai: before the window (09:00–20:00)
    const t = await makeTask(admin, {
      scene_id: sceneId,
      number_ids: [numberId],
      window_start: '09:00',
      latest_call_time: '20:00',
      concurrency: 2,
      callees: '13800000001, Wang Fang\n13800000002\n\n13800000003，Li Lei\n',
    });
    expect(t.callee_total).toBe(3);
    expect((await admin.ok('POST', 'call-center/task/start', { id: t.id })).status).toBe('running');
    await ticks(s, 2);
    expect(await attempts(s, t.id)).toHaveLength(0);
    expect((await task(s, t.id)).status).toBe('running');

    clock.set('2026-11-23T01:00:00Z'); // 09:00 in Shanghai: the window opens
    const first = await untilAttempts(s, t.id, 3);
    await ticks(s, 1);
    expect(await attempts(s, t.id)).toHaveLength(3);
    for (const a of first) {
      expect(a).toMatchObject({ attempt: 1, result: 5, status: 'ended', dialer: 'dry-run', dry_run: true, outcome: DRY });
      expect(new Date(a.called_at).getTime()).toBeGreaterThanOrEqual(Date.parse('2026-11-23T01:00:00Z'));
      // the scene's silent-inquiry settings go into the dial request
      expect(a.request.scene).toMatchObject({ silentSeconds: 7, silentTimes: 3, prologue: expect.stringContaining('Hello') });
      expect(a.request.from).toBe('+86 21 5555 0101');
    }
    expect(first.map((a) => a.callee_number).sort()).toEqual(['13800000001', '13800000002', '13800000003']);
    expect(first.find((a) => a.callee_number === '13800000001')?.request.customerName).toBe('Wang Fang');
    for (const g of await targets(s, t.id)) {
      expect(g).toMatchObject({ state: 'waiting', attempts: 1, result: 5 });
      const wait = new Date(g.next_at!).getTime() - Date.parse('2026-11-23T01:00:00Z');
      expect(wait).toBeGreaterThanOrEqual(30 * MIN);
      expect(wait).toBeLessThan(31 * MIN);
    }

    await untilRoundEnded(s, t.id); // each round is a job of its own
    clock.set('2026-11-23T01:29:00Z'); // not due yet
    await ticks(s, 2);
    expect(await attempts(s, t.id)).toHaveLength(3);

    clock.set('2026-11-23T01:31:00Z'); // the first redial is due
    const second = (await untilAttempts(s, t.id, 6)).slice(3);
    expect(second.map((a) => a.attempt)).toEqual([2, 2, 2]);
    expect(second.every((a) => a.dry_run && a.outcome === DRY)).toBe(true);
    await untilRoundEnded(s, t.id);

    clock.set('2026-11-23T02:02:00Z'); // the second (last) redial
    await untilAttempts(s, t.id, 9);
    const done = await until(() => task(s, t.id), (x) => x.status === 'finished');
    expect(new Date(done.finished_at!).getTime()).toBeGreaterThanOrEqual(Date.parse('2026-11-23T02:02:00Z'));
    for (const g of await targets(s, t.id)) expect(g).toMatchObject({ state: 'done', attempts: 3, outcome: 'exhausted', next_at: null });

    clock.set('2026-11-23T05:00:00Z'); // hours later: nothing more is dialled
    await ticks(s, 2);
    expect(await attempts(s, t.id)).toHaveLength(9);
    expect(await auditActions(s, t.id)).toEqual(expect.arrayContaining(['create', 'start', 'auto_finish']));

    // what the pages read: the task's progress and dialer, the dry-run mark in the call log list
    const detail = await admin.ok('GET', 'call-center/task/detail', { id: t.id });
    expect(detail).toMatchObject({ status: 'finished', callee_total: 3, callee_done: 3, callee_connected: 0, dialer: 'dry-run' });
    const logs = await admin.ok('GET', 'call-center/log/list', { task_id: t.id, page_size: 50 });
    expect(logs.total).toBe(9);
    expect(logs.list.every((l: any) => l.dry_run === true && l.dialer === 'dry-run' && l.outcome === DRY && l.result === 5)).toBe(true);
    // (a job's final state follows the task's in the engine's batched completion)
    const jobs = await until(() => s.db.query<{ state: string }>(`SELECT state FROM work_job WHERE kind = 'voice.campaign' AND ref_type = 'call_task' AND ref_id = $1`, [t.id]), (r) => r.rows.every((j) => !['queued', 'running'].includes(j.state)));
    expect(jobs.rows.length).toBeGreaterThanOrEqual(3);
    expect(jobs.rows.every((j) => j.state === 'done')).toBe(true);
  });

  it.each([
    // Shanghai in winter: 19:50 local = 11:50Z; latest 20:00 = 12:00Z; next day 09:00 = 01:00Z
    { zone: 'Asia/Shanghai', window: ['09:00', '20:00'], open: '2026-12-01T11:50:00Z', latest: '2026-12-01T12:00:30Z', dueWhilePaused: '2026-12-01T12:25:00Z', before: '2026-12-02T00:59:00Z', resume: '2026-12-02T01:00:00.000Z' },
    // New York in summer time (UTC-4): 16:50 local = 20:50Z; latest 17:00 = 21:00Z; next day 08:30 = 12:30Z
    { zone: 'America/New_York', window: ['08:30', '17:00'], open: '2026-07-01T20:50:00Z', latest: '2026-07-01T21:00:30Z', dueWhilePaused: '2026-07-01T21:25:00Z', before: '2026-07-02T12:29:00Z', resume: '2026-07-02T12:30:00.000Z' },
  ])('pauses at the latest call time and resumes the next day at the window start ($zone)', async (c) => {
    const sceneId = await makeScene(admin, { time_zone: c.zone, redial_times: 1, redial_interval_minutes: 20 });
    clock.set(c.open);
    const t = await makeTask(admin, { scene_id: sceneId, number_ids: [numberId], window_start: c.window[0], latest_call_time: c.window[1], callees: '+1 212 555 0101\n+1 212 555 0102' });
    await admin.ok('POST', 'call-center/task/start', { id: t.id });
    await untilAttempts(s, t.id, 2);

    clock.set(c.latest);
    const paused = await until(() => task(s, t.id), (x) => x.status === 'pausing');
    expect(paused.pause_reason).toBe('overrun');
    expect(new Date(paused.resume_at!).toISOString()).toBe(c.resume);

    clock.set(c.dueWhilePaused); // the redials are due, but the task is paused
    await ticks(s, 2);
    clock.set(c.before); // a minute before the window opens the next day
    await ticks(s, 2);
    expect(await attempts(s, t.id)).toHaveLength(2);
    expect((await task(s, t.id)).status).toBe('pausing');

    clock.set(c.resume);
    const all = await untilAttempts(s, t.id, 4);
    expect(all.slice(2).every((a) => a.attempt === 2 && new Date(a.called_at).getTime() >= Date.parse(c.resume))).toBe(true);
    await until(() => task(s, t.id), (x) => x.status === 'finished');
    const actions = await auditActions(s, t.id);
    expect(actions.indexOf('auto_pause')).toBeGreaterThan(-1);
    expect(actions.indexOf('auto_resume')).toBeGreaterThan(actions.indexOf('auto_pause'));
    expect(actions.at(-1)).toBe('auto_finish');
  });

  it('honours pause, start and stop within a few seconds', async () => {
    const sceneId = await makeScene(admin, { time_zone: 'Asia/Shanghai', redial_times: 5, redial_interval_minutes: 10 });
    clock.set('2026-12-05T02:00:00Z'); // 10:00 in Shanghai
    const t = await makeTask(admin, { scene_id: sceneId, number_ids: [numberId], latest_call_time: '20:00', callees: '13900000001\n13900000002' });
    await admin.ok('POST', 'call-center/task/start', { id: t.id });
    await untilAttempts(s, t.id, 2);

    expect((await admin.ok('POST', 'call-center/task/pause', { id: t.id })).status).toBe('pausing');
    clock.set('2026-12-05T02:15:00Z'); // redials due
    await ticks(s, 2);
    expect(await attempts(s, t.id)).toHaveLength(2);

    await admin.ok('POST', 'call-center/task/start', { id: t.id });
    await untilAttempts(s, t.id, 4, 60_000);

    expect((await admin.ok('POST', 'call-center/task/stop', { id: t.id })).status).toBe('stopped');
    clock.set('2026-12-05T02:30:00Z');
    await ticks(s, 2);
    expect(await attempts(s, t.id)).toHaveLength(4);
    expect((await task(s, t.id)).status).toBe('stopped');
    const running = await s.db.query(`SELECT 1 FROM work_job WHERE kind = 'voice.campaign' AND ref_id = $1 AND state IN ('queued', 'running')`, [t.id]);
    expect(running.rows).toHaveLength(0);
  });
});
