import type { Queryable } from '../../db/db.js';
import { conflict, invalid } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { IdReply } from '../../http/typebox.js';
import { CHANNELS, POLICY_SOURCE_TYPES, ids } from '../enums.js';
import { F } from '../engine/fields.js';
import { mustExist } from '../engine/refs.js';
import { mustFind } from '../engine/routes.js';
import { ID, idBody } from '../engine/schemas.js';
import type { Permission, ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';
import { modelCall, modelServer } from './model-server.js';
import { nextRunAfter, scheduleProblem, type Schedule } from '../learning/auto-learn-schedule.js';

/** the column defaults of config_auto_learn (migration 0013) for a rule created without them */
const SCHEDULE_DEFAULTS = { schedule_type: 'interval', interval_hours: 24, run_time: '03:00', time_zone: 'Asia/Shanghai', cron: '' };

/** list / detail / create / update / delete all under the page's own key (the config pages have no button keys). */
const crud = (p: Permission) => ({
  list: { permission: p },
  detail: { permission: p },
  create: { permission: p },
  update: { permission: p },
  delete: { permission: p },
});

async function mustRef(db: Queryable, table: string, id: unknown, field: string): Promise<void> {
  if (id === undefined || id === null) return;
  const r = await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
  if (!r.rows.length) throw invalid([{ field, message: `${String(id)} does not exist / 记录不存在` }]);
}

const optShop = () => ({ ...F.shopId(), required: false, nullable: true });
const stamps = () => ({ created_at: F.createdAt(), updated_at: F.updatedAt() });

/** configCenter/fallback: the reply sent when the AI cannot answer, per shop (none = global) and channel. */
export const fallback: ResourceDef = {
  name: 'config/fallback',
  auditName: 'config_fallback',
  table: 'config_fallback',
  keywordIds: ['id', 'shop_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: optShop(),
    shop_name: F.shopName(),
    channel: F.enumOf(CHANNELS, { required: true }),
    reply: F.text(5000, { required: true }),
    enabled: F.bool(),
    remark: F.str(500),
    ...stamps(),
  },
  operations: crud(SK.fallback),
  validate: async (v, ctx) => mustExist(ctx.db, 'shop', v.shop_id, 'shop_id'),
};

/** configCenter/modelStrategy: which model server (and settings) answers a scene, per shop or globally. */
export const modelStrategy: ResourceDef = {
  name: 'config/model-strategy',
  auditName: 'config_model_strategy',
  table: 'config_model_strategy',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    shop_id: optShop(),
    shop_name: F.shopName(),
    scene: F.str(50),
    /** null: every channel */
    channel: { ...F.enumOf(CHANNELS), nullable: true },
    model_server_id: { schema: ID, required: true, filter: 'eq' },
    model_server_name: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT m.name FROM config_model_server m WHERE m.id = t.model_server_id)',
    },
    /** tried when the first server errs or times out */
    fallback_server_id: { schema: ID, nullable: true, filter: 'eq' },
    fallback_server_name: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT m.name FROM config_model_server m WHERE m.id = t.fallback_server_id)',
    },
    temperature: { schema: { type: 'number', minimum: 0, maximum: 2 }, select: 't.temperature::float8' },
    max_tokens: F.int(1, 32000),
    enabled: F.bool(),
    remark: F.str(500),
    ...stamps(),
  },
  // delete: the bespoke route below (refused while a traffic split points here)
  operations: { ...crud(SK.modelStrategy), list: { permission: [SK.modelStrategy, SK.divert] }, delete: undefined },
  validate: async (v, ctx) => {
    await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    await mustRef(ctx.db, 'config_model_server', v.model_server_id, 'model_server_id');
    await mustRef(ctx.db, 'config_model_server', v.fallback_server_id, 'fallback_server_id');
  },
};

/** configCenter/autoLearn: rules for learning policies automatically from a source type. */
export const autoLearn: ResourceDef = {
  name: 'config/auto-learn',
  auditName: 'config_auto_learn',
  table: 'config_auto_learn',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    source_type: F.enumOf(ids(POLICY_SOURCE_TYPES), { required: true }),
    min_confidence: { schema: { type: 'number', minimum: 0, maximum: 1 }, select: 't.min_confidence::float8' },
    // when the rule runs (server/resources/learning/auto-learn.ts): every interval_hours, daily at
    // run_time in time_zone, or on a cron expression in time_zone
    schedule_type: F.enumOf(['interval', 'daily', 'cron'] as const),
    interval_hours: F.int(1, 720),
    run_time: { schema: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } },
    time_zone: F.str(64, {}, 1),
    cron: F.str(100),
    next_run_at: F.dateTime({ nullable: true, serverSet: true }),
    last_run_at: F.dateTime({ nullable: true, readOnly: true }),
    last_job_id: { schema: { type: 'integer' }, nullable: true, readOnly: true },
    last_job_state: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT j.state FROM work_job j WHERE j.id = t.last_job_id)' },
    last_job_result: {
      schema: { type: 'object', additionalProperties: true },
      nullable: true,
      virtual: true,
      select: '(SELECT j.result FROM work_job j WHERE j.id = t.last_job_id)',
    },
    enabled: F.bool(),
    remark: F.str(500),
    ...stamps(),
  },
  operations: crud(SK.autoLearn),
  // a valid schedule, and its next due time from the engine clock whenever the schedule changes
  validate: async (v, ctx, _mode, before) => {
    const keys = ['schedule_type', 'interval_hours', 'run_time', 'time_zone', 'cron', 'enabled'];
    if (before && !keys.some((k) => k in v)) return;
    const s = { ...SCHEDULE_DEFAULTS, ...(before ?? {}), ...v } as unknown as Schedule;
    const problem = scheduleProblem(s);
    if (problem) throw invalid([problem]);
    v.next_run_at = nextRunAfter(s, ctx.req.server.jobs.clock.now())?.toISOString() ?? null;
  },
};

/** configCenter/autoLearnShop: the shops auto-learning runs for (one row per shop). */
export const autoLearnShop: ResourceDef = {
  name: 'config/auto-learn-shop',
  auditName: 'config_auto_learn_shop',
  table: 'config_auto_learn_shop',
  keywordIds: ['id', 'shop_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), createOnly: true },
    shop_name: F.shopName(),
    learn_policy: F.bool(),
    learn_product: F.bool(),
    enabled: F.bool(),
    remark: F.str(500),
    ...stamps(),
  },
  operations: crud(SK.autoLearnShop),
  validate: async (v, ctx, mode) => {
    await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    if (mode === 'create') {
      const r = await ctx.db.query(`SELECT 1 FROM config_auto_learn_shop WHERE shop_id = $1`, [v.shop_id]);
      if (r.rows.length) throw invalid([{ field: 'shop_id', message: 'this shop is already configured / 该店铺已配置' }]);
    }
  },
};

/** configCenter/divertData: a share (0–100 %) of a shop's (or all) traffic sent to a model strategy. */
export const divert: ResourceDef = {
  name: 'config/divert',
  auditName: 'config_divert',
  table: 'config_divert',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    shop_id: optShop(),
    shop_name: F.shopName(),
    /** null: every channel */
    channel: { ...F.enumOf(CHANNELS), nullable: true },
    model_strategy_id: { schema: ID, required: true, filter: 'eq' },
    model_strategy_name: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT m.name FROM config_model_strategy m WHERE m.id = t.model_strategy_id)',
    },
    percentage: F.int(0, 100, { required: true }),
    enabled: F.bool(),
    remark: F.str(500),
    ...stamps(),
  },
  operations: crud(SK.divert),
  validate: async (v, ctx) => {
    await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    await mustRef(ctx.db, 'config_model_strategy', v.model_strategy_id, 'model_strategy_id');
  },
};

/** A strategy a traffic split points at cannot be deleted (40009 naming the splits, not a database error). */
modelStrategy.actions = [
  route({
    method: 'POST',
    path: 'config/model-strategy/delete',
    access: { permission: SK.modelStrategy },
    summary: 'Delete a model strategy (refused while a traffic split uses it)',
    body: idBody,
    reply: IdReply,
    handler: async (ctx) => {
      const { id } = ctx.body;
      const before = await mustFind(modelStrategy, ctx, id);
      const used = await ctx.db.query<{ name: string }>(`SELECT name FROM config_divert WHERE model_strategy_id = $1 ORDER BY id LIMIT 3`, [id]);
      if (used.rows.length) {
        const names = used.rows.map((r) => `"${r.name}"`).join(', ');
        throw conflict(`traffic splits ${names} use this strategy: change them first / 分流配置 ${names} 正在使用该策略，请先修改`);
      }
      await ctx.db.query(`DELETE FROM config_model_strategy WHERE id = $1`, [id]);
      await ctx.audit({ action: 'delete', resource: 'config_model_strategy', targetId: id, before });
      return { id };
    },
  }),
];

export const CONFIG_RESOURCES = [modelServer, modelCall, fallback, modelStrategy, autoLearn, autoLearnShop, divert];
