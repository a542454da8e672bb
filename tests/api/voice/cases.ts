/** Every call-center route: how to call it right, wrong, and which key grants it (routes.test.ts). */
import type { BizEnv } from '../business/helpers.js';

const CC = 'intelligent_voice.admin.call_center';
const FALLBACK = 'intelligent_voice.admin.config_center.fallback';

type Payload = Record<string, unknown>;

export interface VoiceFx {
  soundId: number;
  azureSoundId: number;
  freeSoundId: number;
  sceneId: number;
  numberId: number;
  otherNumberId: number;
  pendingTaskId: number;
  runningTaskId: number;
  logId: number;
}

export interface VoiceCase {
  method: 'GET' | 'POST';
  path: string;
  key: string;
  ok: (fx: VoiceFx, extra: Payload) => Payload;
  bad: (fx: VoiceFx, extra: Payload) => Payload;
  badField: string;
  table?: string;
  audit?: { action: string; resource: string };
  prepare?: (env: BizEnv, fx: VoiceFx) => Promise<Payload>;
  check?: (data: any, fx: VoiceFx) => void;
}

const page = () => ({ page: 1, page_size: 5 });
const list = (path: string, key: string, filters: Payload = {}): VoiceCase => ({
  method: 'GET', path, key, ok: () => ({ ...page(), ...filters }), bad: () => ({ page_size: 0 }), badField: 'page_size',
  check: (d) => {
    if (!Array.isArray(d.list) || d.list.length === 0 || typeof d.total !== 'number') throw new Error(`not a filled page: ${JSON.stringify(d).slice(0, 200)}`);
  },
});
const detail = (path: string, key: string, id: (fx: VoiceFx) => number): VoiceCase => ({
  method: 'GET', path, key, ok: (fx) => ({ id: id(fx) }), bad: () => ({ id: 'abc' }), badField: 'id',
  check: (d, fx) => {
    if (d.id !== id(fx)) throw new Error(`wrong row ${JSON.stringify(d).slice(0, 100)}`);
  },
});

const scene = (fx: VoiceFx): Payload => ({
  name: 'Test scene', prologue: 'Hello from the test.', prompt: 'Be brief.', silent_seconds: 5, silent_times: 2,
  redial_times: 1, redial_interval_minutes: 30, time_zone: 'Europe/Berlin', voice_provider: 'azure', sound_id: fx.azureSoundId,
});

async function mk(env: BizEnv, path: string, body: Payload): Promise<number> {
  return (await env.admin.ok('POST', path, body)).id as number;
}

export const VOICE_CASES: VoiceCase[] = [
  // voices
  list('call-center/voice/list', `${CC}.voice`, { provider: 'azure' }),
  detail('call-center/voice/detail', `${CC}.voice.edit`, (fx) => fx.soundId),
  {
    method: 'POST', path: 'call-center/voice/create', key: `${CC}.voice.add`, table: 'voice_sound',
    ok: () => ({ provider: 'google', name: 'Test voice', identifier: 'en-US-Test-A', audio_url: 'https://cdn.example.com/t.mp3' }),
    bad: () => ({ provider: 'acme', name: 'x', identifier: 'y' }), badField: 'provider', audit: { action: 'create', resource: 'voice_sound' },
  },
  {
    method: 'POST', path: 'call-center/voice/update', key: `${CC}.voice.edit`, table: 'voice_sound',
    ok: (fx) => ({ id: fx.freeSoundId, name: 'Renamed voice' }),
    bad: (fx) => ({ id: fx.freeSoundId, audio_url: 'ftp://nope' }), badField: 'audio_url', audit: { action: 'update', resource: 'voice_sound' },
  },
  {
    method: 'POST', path: 'call-center/voice/delete', key: `${CC}.voice`, table: 'voice_sound',
    prepare: async (env) => ({ id: await mk(env, 'call-center/voice/create', { provider: 'aliyun', name: 'Temp', identifier: 'temp-del' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: 0 }), badField: 'id', audit: { action: 'delete', resource: 'voice_sound' },
  },
  // scenes
  list('call-center/scene/list', `${CC}.scene`, { voice_provider: 'azure' }),
  list('call-center/scene/list', `${CC}.call_task.add`),
  detail('call-center/scene/detail', `${CC}.scene.edit`, (fx) => fx.sceneId),
  {
    method: 'POST', path: 'call-center/scene/create', key: `${CC}.scene.add`, table: 'voice_scene',
    ok: (fx) => scene(fx), bad: (fx) => ({ ...scene(fx), silent_seconds: 0 }), badField: 'silent_seconds', audit: { action: 'create', resource: 'voice_scene' },
  },
  {
    method: 'POST', path: 'call-center/scene/update', key: `${CC}.scene.edit`, table: 'voice_scene',
    ok: (fx) => ({ id: fx.sceneId, redial_interval_minutes: 90 }),
    bad: (fx) => ({ id: fx.sceneId, time_zone: 'Mars/Olympus' }), badField: 'time_zone', audit: { action: 'update', resource: 'voice_scene' },
  },
  {
    method: 'POST', path: 'call-center/scene/delete', key: `${CC}.scene`, table: 'voice_scene',
    prepare: async (env, fx) => ({ id: await mk(env, 'call-center/scene/create', { ...scene(fx), name: 'Scene to delete' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: -1 }), badField: 'id', audit: { action: 'delete', resource: 'voice_scene' },
  },
  // numbers
  list('call-center/number/list', `${CC}.call_number`, { country_code: 'US' }),
  detail('call-center/number/detail', `${CC}.call_number`, (fx) => fx.numberId),
  {
    method: 'POST', path: 'call-center/number/create', key: `${CC}.call_number`, table: 'call_number',
    ok: (fx) => ({ phone: '+49 30 1234 5678', provider: 'vonage', country_code: 'DE', status: 1, scene_id: fx.sceneId }),
    bad: () => ({ phone: 'call me', provider: 'vonage', country_code: 'DE' }), badField: 'phone', audit: { action: 'create', resource: 'call_number' },
  },
  {
    method: 'POST', path: 'call-center/number/update', key: `${CC}.call_number`, table: 'call_number',
    ok: (fx) => ({ id: fx.otherNumberId, status: 0 }),
    bad: (fx) => ({ id: fx.otherNumberId, country_code: 'usa' }), badField: 'country_code', audit: { action: 'update', resource: 'call_number' },
  },
  {
    method: 'POST', path: 'call-center/number/delete', key: `${CC}.call_number`, table: 'call_number',
    prepare: async (env) => ({ id: await mk(env, 'call-center/number/create', { phone: '+1 999 555 0000', provider: 'twilio', country_code: 'US' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: 'x' }), badField: 'id', audit: { action: 'delete', resource: 'call_number' },
  },
  // tasks
  list('call-center/task/list', `${CC}.call_task`, { status: 'running' }),
  detail('call-center/task/detail', `${CC}.call_task.edit`, (fx) => fx.pendingTaskId),
  {
    method: 'POST', path: 'call-center/task/create', key: `${CC}.call_task.add`, table: 'call_task',
    ok: (fx) => ({ name: 'Test task', scene_id: fx.sceneId, number_ids: [fx.numberId], mode: 'manual', latest_call_time: '20:00' }),
    bad: (fx) => ({ name: 'Test task', scene_id: fx.sceneId, number_ids: [fx.numberId], mode: 'manual', latest_call_time: '25:00' }),
    badField: 'latest_call_time', audit: { action: 'create', resource: 'call_task' },
  },
  {
    method: 'POST', path: 'call-center/task/update', key: `${CC}.call_task.edit`, table: 'call_task',
    ok: (fx) => ({ id: fx.pendingTaskId, latest_call_time: '21:30' }),
    bad: (fx) => ({ id: fx.pendingTaskId, number_ids: [] }), badField: 'number_ids', audit: { action: 'update', resource: 'call_task' },
  },
  {
    method: 'POST', path: 'call-center/task/start', key: `${CC}.call_task`, table: 'call_task',
    prepare: async (env, fx) => ({ id: await mk(env, 'call-center/task/create', { name: 'To start', scene_id: fx.sceneId, number_ids: [fx.numberId], mode: 'manual', latest_call_time: '23:59' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: 1, extra: 1 }), badField: 'extra', audit: { action: 'start', resource: 'call_task' },
  },
  {
    method: 'POST', path: 'call-center/task/pause', key: `${CC}.call_task`, table: 'call_task',
    ok: (fx) => ({ id: fx.runningTaskId }), bad: () => ({}), badField: 'id', audit: { action: 'pause', resource: 'call_task' },
  },
  {
    method: 'POST', path: 'call-center/task/stop', key: `${CC}.call_task`, table: 'call_task',
    prepare: async (env, fx) => ({ id: await mk(env, 'call-center/task/create', { name: 'To stop', scene_id: fx.sceneId, number_ids: [fx.numberId], mode: 'manual', latest_call_time: '20:00' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: 0 }), badField: 'id', audit: { action: 'stop', resource: 'call_task' },
  },
  {
    method: 'POST', path: 'call-center/task/delete', key: `${CC}.call_task`, table: 'call_task',
    prepare: async (env, fx) => ({ id: await mk(env, 'call-center/task/create', { name: 'To delete', scene_id: fx.sceneId, number_ids: [fx.numberId], mode: 'manual', latest_call_time: '20:00' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: 0 }), badField: 'id', audit: { action: 'delete', resource: 'call_task' },
  },
  // logs
  list('call-center/log/list', `${CC}.log`, { result: 1, sort_by: 'duration_seconds', sort_order: 'desc' }),
  {
    ...detail('call-center/log/detail', `${CC}.log.detail`, (fx) => fx.logId),
    check: (d, fx) => {
      if (d.id !== fx.logId || !Array.isArray(d.transcript) || !d.transcript.length) throw new Error(`no transcript: ${JSON.stringify(d).slice(0, 200)}`);
    },
  },
  {
    method: 'GET', path: 'call-center/dialer', key: `${CC}.call_task`, ok: () => ({}), bad: () => ({ x: 1 }), badField: 'x',
    check: (d) => {
      if (d.name !== 'dry-run' || d.dry_run !== true || d.ready !== true) throw new Error(`not the dry-run dialer: ${JSON.stringify(d)}`);
    },
  },
  // IVR and fallback
  {
    method: 'GET', path: 'call-center/ivr/detail', key: `${CC}.ivr`, ok: () => ({}), bad: () => ({ id: 1 }), badField: 'id',
    check: (d) => {
      if (!Array.isArray(d.menu?.children) || typeof d.menu_text !== 'string') throw new Error('no menu');
    },
  },
  {
    method: 'POST', path: 'call-center/ivr/update', key: `${CC}.ivr.edit`, table: 'voice_ivr_config',
    ok: () => ({ menu: { welcome: 'Hi', timeout_seconds: 5, children: [{ key: '0', label: 'Agent', action: 'transfer', target: '+1 415 555 0100' }] } }),
    bad: () => ({ menu_text: '{"welcome":"Hi","timeout_seconds":5,"children":[{"key":"0","label":"Agent","action":"transfer"}]}' }),
    badField: 'menu_text', audit: { action: 'update', resource: 'voice_ivr_config' },
  },
  {
    method: 'GET', path: 'call-center/fallback/detail', key: FALLBACK, ok: () => ({}), bad: () => ({ x: 1 }), badField: 'x',
    check: (d) => {
      if (typeof d.fallback_reply !== 'string' || !d.fallback_reply) throw new Error('no fallback reply');
    },
  },
  {
    method: 'POST', path: 'call-center/fallback/update', key: FALLBACK, table: 'voice_fallback_config',
    ok: () => ({ max_fail_times: 3, transfer_number: '' }), bad: () => ({ max_fail_times: 99 }), badField: 'max_fail_times',
    audit: { action: 'update', resource: 'voice_fallback_config' },
  },
];
