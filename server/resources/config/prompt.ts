import type { RouteDef } from '../../http/route.js';
import { invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';

/** learn/promptManagement: prompt templates (`{{shop}}`, `{{policies}}`, `{{question}}` placeholders). */
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
    remark: F.str(500),
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
};

export interface PlaygroundInput {
  prompt_id: number;
  model_server_id: number;
  shop_id: number;
  message: string;
}

const words = (s: string) => new Set(s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1));

/**
 * `playground/run`: NO model is called. The reply is a deterministic simulation: the prompt is
 * filled in (shop name, the shop's policies, the question), the policies are ranked by the words
 * they share with the question, and the reply quotes the best one (or says none matched).
 */
export const playgroundRoute: RouteDef = {
  method: 'POST',
  path: 'playground/run',
  access: { permission: SK.playground },
  summary: 'Simulated reply (no real model): the prompt filled with the shop policies and the question',
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['prompt_id', 'model_server_id', 'shop_id', 'message'],
    properties: { prompt_id: ID, model_server_id: ID, shop_id: ID, message: { type: 'string', minLength: 1, maxLength: 2000 } },
  },
  reply: {
    type: 'object',
    properties: {
      simulated: { type: 'boolean' },
      reply: { type: 'string' },
      rendered_prompt: { type: 'string' },
      model: { type: 'string' },
      matched_policies: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, score: { type: 'integer' } } } },
    },
  },
  handler: async (ctx) => {
    const b = ctx.body as PlaygroundInput;
    const one = async <T>(sql: string, id: number, field: string): Promise<T> => {
      const r = await ctx.db.query<T & object>(sql, [id]);
      if (!r.rows[0]) throw invalid([{ field, message: `${id} does not exist` }]);
      return r.rows[0];
    };
    const p = await one<{ content: string }>(`SELECT content FROM prompt WHERE id = $1`, b.prompt_id, 'prompt_id');
    const m = await one<{ name: string; model: string }>(`SELECT name, model FROM config_model_server WHERE id = $1`, b.model_server_id, 'model_server_id');
    const s = await one<{ name: string }>(`SELECT name FROM shop WHERE id = $1`, b.shop_id, 'shop_id');
    const pol = await ctx.db.query<{ id: number; title: string; content: string }>(
      `SELECT id, title, content FROM policy WHERE shop_id = $1 AND status = 1 ORDER BY id LIMIT 200`,
      [b.shop_id],
    );
    const q = words(b.message);
    const ranked = pol.rows
      .map((x) => ({ ...x, score: [...words(`${x.title} ${x.content}`)].filter((w) => q.has(w)).length }))
      .sort((a, z) => z.score - a.score || a.id - z.id);
    const policiesText = pol.rows.map((x) => `- ${x.title}: ${x.content}`).join('\n') || '(none)';
    const rendered = p.content
      .replaceAll('{{shop}}', s.name)
      .replaceAll('{{policies}}', policiesText)
      .replaceAll('{{question}}', b.message);
    const best = ranked.find((x) => x.score > 0);
    const reply = best
      ? `[SIMULATION · ${m.model}] ${s.name}: ${best.title} — ${best.content}`
      : `[SIMULATION · ${m.model}] ${s.name}: no policy matches "${b.message.slice(0, 80)}"; the fallback reply would be sent.`;
    return {
      simulated: true,
      reply,
      rendered_prompt: rendered,
      model: `${m.name} (${m.model})`,
      matched_policies: ranked.filter((x) => x.score > 0).slice(0, 5).map(({ id, title, score }) => ({ id, title, score })),
    };
  },
};
