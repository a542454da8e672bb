import { invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';
import { promptVersionRoutes, stampAuthor } from './prompt-versions.js';

export { playgroundOptionsRoute, playgroundRoute } from './playground.js';

/** learn/promptManagement: prompt templates (`{{shop}}`, `{{policies}}`, `{{question}}` placeholders) and the model server they are meant for. */
export const prompt: ResourceDef = {
  name: 'prompt',
  table: 'prompt',
  keyword: "to_tsvector('simple', t.name || ' ' || t.scene)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    scene: F.str(50),
    content: F.text(20000, { required: true }),
    /** none: the built-in responder */
    model_server_id: { schema: ID, nullable: true, filter: 'eq' },
    model_server_name: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT m.name FROM config_model_server m WHERE m.id = t.model_server_id)',
    },
    remark: F.str(500),
    /** the newest saved version's number (every save is a version: prompt/versions) */
    version: { schema: { type: 'integer' }, nullable: true, virtual: true, select: '(SELECT max(v.version) FROM prompt_version v WHERE v.prompt_id = t.id)' },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [SK.prompt, SK.playground] },
    detail: { permission: [SK.prompt, SK.playground] },
    create: { permission: SK.prompt },
    update: { permission: SK.prompt },
    delete: { permission: SK.prompt },
  },
  // the trigger saved the version; the author is who saved it
  afterCreate: async (row, ctx) => stampAuthor(ctx.db, Number(row.id), ctx.user),
  afterUpdate: async (row, _before, ctx) => stampAuthor(ctx.db, Number(row.id), ctx.user),
  actions: promptVersionRoutes,
  validate: async (v, ctx) => {
    if (v.model_server_id === undefined || v.model_server_id === null) return;
    const r = await ctx.db.query(`SELECT 1 FROM config_model_server WHERE id = $1`, [v.model_server_id]);
    if (!r.rows.length) throw invalid([{ field: 'model_server_id', message: `${String(v.model_server_id)} does not exist / 模型服务不存在` }]);
  },
};

