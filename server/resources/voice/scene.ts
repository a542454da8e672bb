import { conflict, invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { deleteRoute } from '../engine/routes.js';
import { mustExistAll } from './common.js';
import { VK, VOICE_PROVIDERS } from './keys.js';
import { isTimeZone } from './task-status.js';

/**
 * Voice assistant scenes (spec section 3): name, prologue, prompt, silent inquiry settings
 * (ask again after `silent_seconds` of silence, at most `silent_times` times), redial settings
 * (`redial_times` times, `redial_interval_minutes` apart), time zone, voice provider and sound
 * (a voice of the library with the same provider).
 */
export const voiceScene: ResourceDef = {
  name: 'call-center/scene',
  auditName: 'voice_scene',
  table: 'voice_scene',
  keyword: "to_tsvector('simple', t.name)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    prologue: F.text(2000, { required: true }),
    prompt: F.text(20000, { required: true, detailOnly: true }),
    silent_seconds: F.int(1, 60, { required: true }),
    silent_times: F.int(0, 10, { required: true }),
    redial_times: F.int(0, 10, { required: true }),
    redial_interval_minutes: F.int(1, 1440, { required: true }),
    time_zone: F.str(64, { required: true }, 1),
    voice_provider: F.enumOf(VOICE_PROVIDERS, { required: true }),
    sound_id: { schema: ID, nullable: true, filter: 'eq' },
    sound_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT v.name FROM voice_sound v WHERE v.id = t.sound_id)' },
    task_count: { schema: { type: 'integer' }, virtual: true, select: '(SELECT count(*)::int FROM call_task k WHERE k.scene_id = t.id)' },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [VK.scene, VK.number, VK.task, VK.taskAdd, VK.taskEdit] },
    detail: { permission: [VK.scene, VK.sceneEdit] },
    create: { permission: VK.sceneAdd },
    update: { permission: VK.sceneEdit },
  },
  validate: async (v, ctx, _mode, before) => {
    if (typeof v.time_zone === 'string' && !isTimeZone(v.time_zone)) {
      throw invalid([{ field: 'time_zone', message: `unknown time zone ${v.time_zone} / 未知时区` }]);
    }
    const soundId = 'sound_id' in v ? v.sound_id : before?.sound_id;
    const provider = v.voice_provider ?? before?.voice_provider;
    if (soundId === null || soundId === undefined || !('sound_id' in v || 'voice_provider' in v)) return;
    await mustExistAll(ctx.db, 'voice_sound', [soundId], 'sound_id');
    const r = await ctx.db.query<{ provider: string }>('SELECT provider FROM voice_sound WHERE id = $1', [soundId]);
    if (r.rows[0].provider !== provider) {
      throw invalid([{ field: 'sound_id', message: `the voice is a ${r.rows[0].provider} voice, not ${String(provider)} / 音色与语音供应商不一致` }]);
    }
  },
};

/** A scene used by a call task cannot be deleted (40009); numbers bound to it are unbound. */
voiceScene.actions = [
  deleteRoute(voiceScene, VK.scene, async ({ id }, { db }) => {
    const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM call_task WHERE scene_id = $1', [id]);
    if (r.rows[0].n > 0) throw conflict(`this scene is used by ${r.rows[0].n} call task(s) / 该场景正被外呼任务使用`);
  }),
];
