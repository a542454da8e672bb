import type { TestServer } from '../harness.js';
import type { VoiceFx } from './cases.js';

const one = async (s: TestServer, sql: string): Promise<number> => {
  const r = await s.db.query<{ id: number }>(sql);
  if (!r.rows[0]) throw new Error(`no demo row for: ${sql}`);
  return Number(r.rows[0].id);
};

/** Ids of demo rows the voice tests use (server/db/demo/voice.ts). */
export async function voiceFixtures(s: TestServer): Promise<VoiceFx> {
  return {
    soundId: await one(s, 'SELECT id FROM voice_sound ORDER BY id LIMIT 1'),
    azureSoundId: await one(s, "SELECT id FROM voice_sound WHERE provider = 'azure' ORDER BY id LIMIT 1"),
    freeSoundId: await one(s, 'SELECT id FROM voice_sound v WHERE NOT EXISTS (SELECT 1 FROM voice_scene s WHERE s.sound_id = v.id) ORDER BY id LIMIT 1'),
    sceneId: await one(s, 'SELECT id FROM voice_scene ORDER BY id LIMIT 1'),
    numberId: await one(s, 'SELECT id FROM call_number WHERE status = 1 ORDER BY id LIMIT 1'),
    otherNumberId: await one(s, 'SELECT id FROM call_number ORDER BY id DESC LIMIT 1'),
    // tasks of their own: the campaign ticker moves demo tasks by the real clock (scheduled starts,
    // pauses at the latest call time); a manual task open 00:00–23:59 with no numbers to call stays put
    pendingTaskId: await one(s, "INSERT INTO call_task (name, scene_id, number_ids, mode, status, window_start, latest_call_time) SELECT 'Fixture pending', id, '{}', 'manual', 'pending', '00:00', '23:59' FROM voice_scene ORDER BY id LIMIT 1 RETURNING id"),
    runningTaskId: await one(s, "INSERT INTO call_task (name, scene_id, number_ids, mode, status, window_start, latest_call_time) SELECT 'Fixture running', id, '{}', 'manual', 'running', '00:00', '23:59' FROM voice_scene ORDER BY id LIMIT 1 RETURNING id"),
    logId: await one(s, 'SELECT id FROM call_log WHERE result = 1 ORDER BY id LIMIT 1'),
  };
}
