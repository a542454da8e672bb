import { invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { mustExistAll } from './common.js';
import { NUMBER_PROVIDERS, PHONE_PATTERN, VK } from './keys.js';

/** Outbound phone numbers: number, carrier, country, status (1 enabled / 0 disabled), bound scene. */
export const callNumber: ResourceDef = {
  name: 'call-center/number',
  auditName: 'call_number',
  table: 'call_number',
  keyword: "to_tsvector('simple', t.phone)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    phone: { schema: { type: 'string', maxLength: 32, pattern: PHONE_PATTERN }, required: true, filter: 'eq' },
    provider: F.enumOf(NUMBER_PROVIDERS, { required: true }),
    country_code: { schema: { type: 'string', pattern: '^[A-Z]{2}$' }, required: true, filter: 'eq' },
    status: F.enumOf([0, 1]),
    scene_id: { schema: ID, nullable: true, filter: 'eq' },
    scene_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT s.name FROM voice_scene s WHERE s.id = t.scene_id)' },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [VK.number, VK.task, VK.taskAdd, VK.taskEdit] },
    detail: { permission: VK.number },
    create: { permission: VK.number },
    update: { permission: VK.number },
    delete: { permission: VK.number },
  },
  validate: async (v, ctx, _mode, before) => {
    if ('scene_id' in v) await mustExistAll(ctx.db, 'voice_scene', v.scene_id === null ? [] : [v.scene_id], 'scene_id');
    if (typeof v.phone === 'string') {
      const r = await ctx.db.query('SELECT 1 FROM call_number WHERE phone = $1 AND id <> $2', [v.phone, before?.id ?? 0]);
      if (r.rows.length) throw invalid([{ field: 'phone', message: `number ${v.phone} already exists / 号码已存在` }]);
    }
  },
};
