import type { Queryable } from '../../db/db.js';
import { invalid } from '../../http/errors.js';
import { CHANNELS, POLICY_SOURCE_TYPES, ids } from '../enums.js';
import { F } from '../engine/fields.js';
import { mustExist } from '../engine/refs.js';
import { ID } from '../engine/schemas.js';
import type { Permission, ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';

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
  if (!r.rows.length) throw invalid([{ field, message: `${String(id)} does not exist` }]);
}

const optShop = () => ({ ...F.shopId(), required: false, nullable: true });
const stamps = () => ({ created_at: F.createdAt(), updated_at: F.updatedAt() });

/** configCenter/server: model servers (provider, endpoint, model, limits). No secrets are stored. */
export const modelServer: ResourceDef = {
  name: 'config/model-server',
  auditName: 'config_model_server',
  table: 'config_model_server',
  keyword: "to_tsvector('simple', t.name || ' ' || t.model)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true }, 1),
    provider: F.str(50, { required: true }, 1),
    endpoint: F.url(),
    model: F.str(100, { required: true }, 1),
    timeout_ms: F.int(100, 600000),
    max_concurrency: F.int(1, 10000),
    enabled: F.bool(),
    remark: F.str(500),
    ...stamps(),
  },
  operations: { ...crud(SK.server), list: { permission: [SK.server, SK.modelStrategy, SK.playground] } },
};

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
    name: F.str(100, { required: true }, 1),
    shop_id: optShop(),
    shop_name: F.shopName(),
    scene: F.str(50),
    model_server_id: { schema: ID, required: true, filter: 'eq' },
    model_server_name: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT m.name FROM config_model_server m WHERE m.id = t.model_server_id)',
    },
    temperature: { schema: { type: 'number', minimum: 0, maximum: 2 }, select: 't.temperature::float8' },
    max_tokens: F.int(1, 32000),
    enabled: F.bool(),
    remark: F.str(500),
    ...stamps(),
  },
  operations: { ...crud(SK.modelStrategy), list: { permission: [SK.modelStrategy, SK.divert] } },
  validate: async (v, ctx) => {
    await mustExist(ctx.db, 'shop', v.shop_id, 'shop_id');
    await mustRef(ctx.db, 'config_model_server', v.model_server_id, 'model_server_id');
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
    name: F.str(100, { required: true }, 1),
    source_type: F.enumOf(ids(POLICY_SOURCE_TYPES), { required: true }),
    min_confidence: { schema: { type: 'number', minimum: 0, maximum: 1 }, select: 't.min_confidence::float8' },
    interval_hours: F.int(1, 720),
    enabled: F.bool(),
    remark: F.str(500),
    ...stamps(),
  },
  operations: crud(SK.autoLearn),
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
    name: F.str(100, { required: true }, 1),
    shop_id: optShop(),
    shop_name: F.shopName(),
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

export const CONFIG_RESOURCES = [modelServer, fallback, modelStrategy, autoLearn, autoLearnShop, divert];
