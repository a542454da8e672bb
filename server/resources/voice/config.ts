import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '../../db/db.js';
import { route, type RouteDef } from '../../http/route.js';
import { AnyObject, NoQuery, Nullable } from '../../http/typebox.js';
import { invalid } from '../../http/errors.js';
import { ivrProblems } from './ivr-menu.js';
import { PHONE_PATTERN, VK } from './keys.js';

/**
 * The two one-row configurations of the voice module: the IVR menu tree and the fallback
 * (what the assistant does when it cannot answer). Each has `…/detail` and `…/update`; an update
 * writes an audit row with the row before and after.
 */
/** the time of the last save (null: never saved, the defaults) */
const updatedAt = Nullable(Type.String({ format: 'date-time' }));

const IVR_REPLY = Type.Object({
  id: Type.Integer(),
  /** the tree as stored (server/resources/voice/ivr-menu.ts checks it): every key kept */
  menu: AnyObject({ additionalProperties: true }),
  menu_text: Type.String(),
  updated_at: updatedAt,
});

async function ivrRow(db: Queryable): Promise<Static<typeof IVR_REPLY>> {
  const r = await db.query<{ menu: Record<string, unknown>; updated_at: string | null }>('SELECT menu, updated_at FROM voice_ivr_config WHERE id = 1');
  const row = r.rows[0] ?? { menu: { welcome: '', timeout_seconds: 10, children: [] }, updated_at: null };
  return { id: 1, menu: row.menu, menu_text: JSON.stringify(row.menu, null, 2), updated_at: row.updated_at };
}

const ivrDetail = route({
  method: 'GET',
  path: 'call-center/ivr/detail',
  access: { permission: [VK.ivr, VK.ivrEdit] },
  tags: ['call-center'],
  summary: 'The IVR menu tree (`menu`, and `menu_text`: the same as indented JSON for the edit form)',
  query: NoQuery,
  reply: IVR_REPLY,
  handler: async (ctx) => ivrRow(ctx.db),
});

const ivrUpdate = route({
  method: 'POST',
  path: 'call-center/ivr/update',
  access: { permission: VK.ivrEdit },
  tags: ['call-center'],
  summary: 'Replace the IVR menu tree: `menu` (object) or `menu_text` (its JSON text); problems are 40001 with their path in the tree',
  body: Type.Object({ menu: Type.Optional(AnyObject()), menu_text: Type.Optional(Type.String({ maxLength: 100000 })) }, { additionalProperties: false }),
  reply: IVR_REPLY,
  handler: async (ctx) => {
    const body = ctx.body;
    const field = body.menu_text !== undefined ? 'menu_text' : 'menu';
    let menu: unknown = body.menu;
    if (body.menu_text !== undefined) {
      try {
        menu = JSON.parse(body.menu_text);
      } catch (e) {
        throw invalid([{ field, message: `not valid JSON: ${(e as Error).message} / JSON 格式错误` }]);
      }
    }
    if (menu === undefined) throw invalid([{ field: 'menu', message: 'menu is required / 请填写菜单' }]);
    const problems = ivrProblems(menu);
    if (problems.length) throw invalid(problems.map((p) => ({ field, message: p })));
    const before = await ivrRow(ctx.db);
    await ctx.db.query(
      `INSERT INTO voice_ivr_config (id, menu, updated_at) VALUES (1, $1::jsonb, now())
       ON CONFLICT (id) DO UPDATE SET menu = EXCLUDED.menu, updated_at = now()`,
      [JSON.stringify(menu)],
    );
    const after = await ivrRow(ctx.db);
    await ctx.audit({ action: 'update', resource: 'voice_ivr_config', targetId: 1, before: { menu: before.menu }, after: { menu: after.menu } });
    return after;
  },
});

const FALLBACK_FIELDS = {
  enabled: Type.Boolean(),
  fallback_reply: Type.String({ maxLength: 2000 }),
  max_fail_times: Type.Integer({ minimum: 1, maximum: 10 }),
  transfer_number: Type.String({ maxLength: 32, pattern: `(${PHONE_PATTERN})|^$` }),
  hangup_message: Type.String({ maxLength: 2000 }),
};
const FALLBACK_COLS = Object.keys(FALLBACK_FIELDS);

const FALLBACK_REPLY = Type.Object({ id: Type.Integer(), ...FALLBACK_FIELDS, updated_at: updatedAt });
type FallbackRow = Static<typeof FALLBACK_REPLY>;

async function fallbackRow(db: Queryable): Promise<FallbackRow> {
  const r = await db.query<FallbackRow>(`SELECT id, ${FALLBACK_COLS.join(', ')}, updated_at FROM voice_fallback_config WHERE id = 1`);
  return r.rows[0] ?? { id: 1, enabled: true, fallback_reply: '', max_fail_times: 2, transfer_number: '', hangup_message: '', updated_at: null };
}

const fallbackDetail = route({
  method: 'GET',
  path: 'call-center/fallback/detail',
  access: { permission: VK.fallback },
  tags: ['call-center'],
  summary: 'The voice fallback configuration',
  query: NoQuery,
  reply: FALLBACK_REPLY,
  handler: async (ctx) => fallbackRow(ctx.db),
});

const fallbackUpdate = route({
  method: 'POST',
  path: 'call-center/fallback/update',
  access: { permission: VK.fallback },
  tags: ['call-center'],
  summary: 'Change the voice fallback configuration (any of its fields)',
  body: Type.Partial(Type.Object({ id: Type.Integer({ enum: [1] }), ...FALLBACK_FIELDS }, { additionalProperties: false })),
  reply: FALLBACK_REPLY,
  handler: async (ctx) => {
    const body = ctx.body;
    if (body.enabled === true && body.fallback_reply !== undefined && !body.fallback_reply.trim()) {
      throw invalid([{ field: 'fallback_reply', message: 'an enabled fallback needs a reply / 启用兜底时需填写兜底话术' }]);
    }
    const before = await fallbackRow(ctx.db);
    const values: Record<string, unknown> = body;
    const cols = FALLBACK_COLS.filter((c) => c in values);
    if (cols.length) {
      await ctx.db.query(
        `UPDATE voice_fallback_config SET ${cols.map((c, i) => `${c} = $${i + 1}`).join(', ')}, updated_at = now() WHERE id = 1`,
        cols.map((c) => values[c]),
      );
    }
    const after = await fallbackRow(ctx.db);
    await ctx.audit({ action: 'update', resource: 'voice_fallback_config', targetId: 1, before, after });
    return after;
  },
});

export const configRoutes: RouteDef[] = [ivrDetail, ivrUpdate, fallbackDetail, fallbackUpdate];
