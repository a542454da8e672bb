import { conflict, invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import type { ResourceDef } from '../engine/types.js';
import { deleteRoute } from '../engine/routes.js';
import { VK, VOICE_PROVIDERS } from './keys.js';

/** The voice library (spec section 3 "Voice": provider, audio URL, identifier) plus a display name. */
export const voiceSound: ResourceDef = {
  name: 'call-center/voice',
  auditName: 'voice_sound',
  table: 'voice_sound',
  keyword: "to_tsvector('simple', t.name || ' ' || t.identifier)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    provider: F.enumOf(VOICE_PROVIDERS, { required: true }),
    name: F.str(100, { required: true, sort: true }, 1),
    audio_url: F.url(),
    identifier: F.str(120, { required: true }, 1),
    scene_count: { schema: { type: 'integer' }, virtual: true, select: '(SELECT count(*)::int FROM voice_scene s WHERE s.sound_id = t.id)' },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [VK.voice, VK.scene, VK.sceneAdd, VK.sceneEdit] },
    detail: { permission: [VK.voice, VK.voiceEdit] },
    create: { permission: VK.voiceAdd },
    update: { permission: VK.voiceEdit },
  },
  validate: async (v, ctx, _mode, before) => {
    const provider = v.provider ?? before?.provider;
    const identifier = v.identifier ?? before?.identifier;
    if (!('provider' in v) && !('identifier' in v)) return;
    const r = await ctx.db.query('SELECT id FROM voice_sound WHERE provider = $1 AND identifier = $2 AND id <> $3', [provider, identifier, before?.id ?? 0]);
    if (r.rows.length) throw invalid([{ field: 'identifier', message: `${String(provider)} voice ${String(identifier)} already exists / 该音色已存在` }]);
  },
};

/** A voice used by a scene cannot be deleted (40009). */
voiceSound.actions = [
  deleteRoute(voiceSound, VK.voice, async ({ id }, { db }) => {
    const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM voice_scene WHERE sound_id = $1', [id]);
    if (r.rows[0].n > 0) throw conflict(`this voice is used by ${r.rows[0].n} scene(s) / 该音色正被场景使用`);
  }),
];
