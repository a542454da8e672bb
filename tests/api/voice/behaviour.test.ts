// @db once
/** Call-center rules beyond plain CRUD: task transitions (40009), in-use guards. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from '../harness.js';

let s: TestServer;
let admin: ApiClient;
let sceneId: number;
let numberId: number;
beforeAll(async () => {
  s = await startServer({ seedDemo: true });
  admin = await s.login();
  sceneId = Number((await s.db.query<{ id: number }>("SELECT id FROM voice_scene WHERE time_zone = 'Asia/Shanghai' ORDER BY id LIMIT 1")).rows[0].id);
  numberId = Number((await s.db.query<{ id: number }>('SELECT id FROM call_number ORDER BY id LIMIT 1')).rows[0].id);
});
afterAll(async () => {
  await s?.close();
});

const newTask = async (extra: Record<string, unknown> = {}) =>
  (await admin.ok('POST', 'call-center/task/create', { name: 'Behaviour', scene_id: sceneId, number_ids: [numberId], mode: 'manual', latest_call_time: '23:59', ...extra })) as Record<string, any>;

describe('call task transitions', () => {
  it('start → pause → start → stop; illegal ones are 40009 and change nothing', async () => {
    const t = await newTask();
    expect(t.status).toBe('pending');
    expect((await admin.post('call-center/task/pause', { id: t.id })).body.code).toBe(40009);
    const started = await admin.ok('POST', 'call-center/task/start', { id: t.id });
    // 23:59 in Shanghai may already have passed when this runs; then the rule pauses it at once
    expect(['running', 'pausing']).toContain(started.status);
    if (started.status === 'running') {
      expect((await admin.post('call-center/task/start', { id: t.id })).body.code).toBe(40009);
      expect((await admin.post('call-center/task/update', { id: t.id, name: 'x' })).body.code).toBe(40009);
      const paused = await admin.ok('POST', 'call-center/task/pause', { id: t.id });
      expect(paused).toMatchObject({ status: 'pausing', pause_reason: 'manual' });
      expect((await admin.ok('POST', 'call-center/task/update', { id: t.id, name: 'Renamed while paused' })).name).toBe('Renamed while paused');
    }
    expect((await admin.ok('POST', 'call-center/task/stop', { id: t.id })).status).toBe('stopped');
    for (const a of ['start', 'pause', 'stop']) {
      const r = await admin.post(`call-center/task/${a}`, { id: t.id });
      expect(r.body.code, a).toBe(40009);
    }
    expect((await admin.ok('GET', 'call-center/task/detail', { id: t.id })).status).toBe('stopped');
  });

  it('a scheduled task needs a start time; an immediate one runs at once', async () => {
    const r = await admin.post('call-center/task/create', { name: 'S', scene_id: sceneId, number_ids: [numberId], mode: 'schedule', latest_call_time: '20:00' });
    expect(r.body.code).toBe(40001);
    expect(JSON.stringify(r.body.data)).toContain('start_at');
    // the date picker's wall-clock time is read in the scene's time zone (Asia/Shanghai here)
    const sch = await newTask({ mode: 'schedule', start_at: '2030-12-01 10:00:00' });
    expect(sch.status).toBe('pending');
    expect(new Date(sch.start_at).toISOString()).toBe('2030-12-01T02:00:00.000Z');
    const iso = await newTask({ mode: 'schedule', start_at: '2030-12-01T10:00:00Z' });
    expect(new Date(iso.start_at).toISOString()).toBe('2030-12-01T10:00:00.000Z');
    const imm = await newTask({ mode: 'immediate' });
    expect(['running', 'pausing']).toContain(imm.status);
    expect(imm.start_at).toBeTruthy();
  });
  // the latest-call-time rule, the call window and the campaign itself: campaign*.test.ts
});

describe('guards', () => {
  it('refuses to delete a scene used by a task or a voice used by a scene (40009)', async () => {
    expect((await admin.post('call-center/scene/delete', { id: sceneId })).body.code).toBe(40009);
    const used = (await s.db.query<{ id: number }>('SELECT sound_id AS id FROM voice_scene WHERE sound_id IS NOT NULL LIMIT 1')).rows[0].id;
    expect((await admin.post('call-center/voice/delete', { id: used })).body.code).toBe(40009);
    const running = await newTask({ window_start: '00:00' });
    await admin.ok('POST', 'call-center/task/start', { id: running.id });
    expect((await admin.post('call-center/task/delete', { id: running.id })).body.code).toBe(40009);
  });
  it('checks the scene voice against its provider, and unknown numbers', async () => {
    const google = (await s.db.query<{ id: number }>("SELECT id FROM voice_sound WHERE provider = 'google' LIMIT 1")).rows[0].id;
    const r = await admin.post('call-center/scene/update', { id: sceneId, sound_id: google });
    expect(r.body.code).toBe(40001);
    expect(JSON.stringify(r.body.data)).toContain('sound_id');
    const r2 = await admin.post('call-center/task/create', { name: 'N', scene_id: sceneId, number_ids: [999999], mode: 'manual', latest_call_time: '20:00' });
    expect(r2.body.code).toBe(40001);
    expect(JSON.stringify(r2.body.data)).toContain('number_ids');
  });
  it('refuses duplicate numbers and voices', async () => {
    const phone = (await s.db.query<{ phone: string }>('SELECT phone FROM call_number LIMIT 1')).rows[0].phone;
    expect((await admin.post('call-center/number/create', { phone, provider: 'twilio', country_code: 'US' })).body.code).toBe(40001);
    const v = (await s.db.query<{ provider: string; identifier: string }>('SELECT provider, identifier FROM voice_sound LIMIT 1')).rows[0];
    expect((await admin.post('call-center/voice/create', { ...v, name: 'dup' })).body.code).toBe(40001);
  });
  it('names the path of an IVR problem and keeps the old menu', async () => {
    const before = await admin.ok('GET', 'call-center/ivr/detail');
    const r = await admin.post('call-center/ivr/update', { menu: { welcome: 'x', timeout_seconds: 5, children: [{ key: '1', label: 'a', action: 'ai' }, { key: '1', label: 'b', action: 'ai' }] } });
    expect(r.body.code).toBe(40001);
    expect(JSON.stringify(r.body.data)).toContain('children[1].key');
    expect((await admin.ok('GET', 'call-center/ivr/detail')).menu).toEqual(before.menu);
    const bad = await admin.post('call-center/ivr/update', { menu_text: '{ not json' });
    expect(bad.body.code).toBe(40001);
  });
  it('the demo seed is idempotent', async () => {
    const { seedVoiceDemo } = await import('../../../server/db/demo/voice.js');
    const n = async () => (await s.db.query<{ n: number }>('SELECT (SELECT count(*) FROM call_log) + (SELECT count(*) FROM voice_sound) AS n')).rows[0].n;
    const before = await n();
    await seedVoiceDemo(s.db);
    expect(await n()).toBe(before);
  });
});
