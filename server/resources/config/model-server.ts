/**
 * configCenter/server: model servers (OpenAI-compatible endpoints), their connection test, the
 * id+name picker of the forms that choose one, and the model call log (docs/ai.md).
 * The API key is write-only: stored encrypted (server/ai/secrets.ts), shown as `key_masked`.
 */
import { Code } from '../../../src/contract/codes.js';
import { encryptSecret, maskSecret } from '../../ai/secrets.js';
import { listModelServers, testConnection } from '../../ai/gateway/index.js';
import { AppError, conflict, invalid } from '../../http/errors.js';
import { bilingualPrefix } from '../../http/lang.js';
import { classifyAddress } from '../../http/addresses.js';
import { urlProblem } from '../../http/outbound.js';
import { Type } from '@sinclair/typebox';
import type { Queryable } from '../../db/db.js';
import { route, type RouteDef } from '../../http/route.js';
import { F } from '../engine/fields.js';
import { sendOk } from '../engine/raw.js';
import { insertRow, mustFind, updateRow } from '../engine/routes.js';
import { createBodySchema, ID, idBody, rowSchema, updateBodySchema, type Fields } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { check } from '../engine/validate.js';
import { CHANNELS } from '../enums.js';
import { K } from '../keys.js';
import { SK } from '../sessions/keys.js';
import { IdReply, Nullable, OptionList } from '../../http/typebox.js';

const stamps = () => ({ created_at: F.createdAt(), updated_at: F.updatedAt() });

export const modelServer: ResourceDef = {
  name: 'config/model-server',
  auditName: 'config_model_server',
  table: 'config_model_server',
  keyword: "to_tsvector('simple', t.name || ' ' || t.model)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    provider: F.str(50),
    endpoint: { schema: { type: 'string', maxLength: 500, pattern: '^https?://\\S+$' }, required: true },
    model: F.str(100, { required: true }, 1),
    /** `sk-…abcd` (the key itself is never read back) */
    key_masked: { schema: { type: 'string' }, column: 'api_key_mask', serverSet: true },
    timeout_ms: F.int(100, 600000),
    max_tokens: F.int(1, 1000000),
    max_concurrency: F.int(1, 10000),
    /** price per million prompt (input) and completion (output) tokens: each call's, run's and day's cost (0: not priced) */
    price_input: { schema: { type: 'number', minimum: 0, maximum: 100000 }, select: 't.price_input::float8' },
    price_output: { schema: { type: 'number', minimum: 0, maximum: 100000 }, select: 't.price_output::float8' },
    supports_vision: F.bool(),
    supports_embeddings: F.bool(),
    /** the server offers the OpenAI fine-tuning API: lab experiment tasks can train on it (docs/integrations.md "Trainer") */
    supports_fine_tuning: F.bool(),
    embedding_model: F.str(100),
    enabled: F.bool(),
    remark: F.str(500),
    last_test_ok: { schema: { type: 'boolean' }, nullable: true, readOnly: true },
    last_test_at: { schema: { type: 'string', format: 'date-time' }, nullable: true, readOnly: true },
    last_test_message: { schema: { type: 'string' }, readOnly: true },
    ...stamps(),
  },
  // create / update / delete are the bespoke routes below (the key, the references)
  operations: { list: { permission: [SK.server, SK.modelStrategy, SK.playground] }, detail: { permission: SK.server } },
};

const API_KEY = { type: 'string', maxLength: 500 };
/** the engine's bodies of the resource, plus the write-only key (built from the declaration: typed as records) */
const createBody = (() => {
  const s = createBodySchema(modelServer);
  return Type.Unsafe<Fields & { api_key?: string }>({ ...s, properties: { ...s.properties, api_key: API_KEY } });
})();
const updateBody = (() => {
  const s = updateBodySchema(modelServer);
  return Type.Unsafe<Fields & { id: number; api_key?: string; clear_api_key?: boolean }>({
    ...s,
    properties: { ...s.properties, api_key: API_KEY, clear_api_key: { type: 'boolean' } },
  });
})();

/**
 * The endpoint's shape (http(s), a host, no credentials), and never a link-local or metadata
 * address typed as such (refused whatever the settings). Where a name points, and private
 * addresses, are checked at every call (server/http/outbound.ts): the settings may change.
 */
function checkEndpoint(endpoint: unknown): void {
  if (typeof endpoint !== 'string') return;
  const problem = urlProblem(endpoint);
  if (problem) throw invalid([{ field: 'endpoint', message: problem }]);
  const c = classifyAddress(new URL(endpoint).hostname);
  if (c.cls === 'forbidden') {
    throw invalid([{ field: 'endpoint', message: `is a ${c.en} address, never called / 是${c.zh}，不允许调用` }]);
  }
}

/** The same endpoint, written differently (case of the host, a trailing slash)? */
const sameEndpoint = (a: unknown, b: unknown): boolean => {
  const norm = (x: unknown) => {
    try {
      return new URL(String(x)).href.replace(/\/+$/, '');
    } catch {
      return String(x);
    }
  };
  return norm(a) === norm(b);
};

/** Writes the key's ciphertext (same transaction); the audit row of the change holds the mask only. */
const storeKey = (db: Queryable, id: number, enc: string) => db.query(`UPDATE config_model_server SET api_key_enc = $2 WHERE id = $1`, [id, enc]);

const createRoute = route({
  method: 'POST',
  path: 'config/model-server/create',
  access: { permission: SK.server },
  summary: 'Create a model server (api_key is stored encrypted and never returned)',
  body: createBody,
  reply: rowSchema(modelServer),
  handler: async (ctx) => {
    const { api_key: key = '', ...values } = ctx.body;
    checkEndpoint(values.endpoint);
    const enc = encryptSecret(key.trim());
    const row = await insertRow(modelServer, ctx, { ...values, key_masked: maskSecret(key.trim()) });
    if (enc) await storeKey(ctx.db, row.id as number, enc);
    return row;
  },
});

const updateRoute = route({
  method: 'POST',
  path: 'config/model-server/update',
  access: { permission: SK.server },
  summary:
    'Update a model server (no api_key: the stored key stays, unless the endpoint changes: a new endpoint without a key typed again drops the stored key; clear_api_key removes it)',
  body: updateBody,
  reply: rowSchema(modelServer),
  handler: async (ctx) => {
    const { id, api_key: raw, clear_api_key: clear, ...values } = ctx.body;
    const before = await mustFind(modelServer, ctx, id);
    checkEndpoint(values.endpoint);
    const key = (raw ?? '').trim();
    // changing where the key goes is as sensitive as the key: a new endpoint keeps no stored key
    const moved = values.endpoint !== undefined && !sameEndpoint(values.endpoint, before.endpoint);
    let enc: string | null = null;
    if (key) {
      enc = encryptSecret(key);
      values.key_masked = maskSecret(key);
    } else if (clear || moved) {
      enc = '';
      values.key_masked = '';
    }
    if (enc !== null) await storeKey(ctx.db, id, enc);
    return updateRow(modelServer, ctx, id, values, before);
  },
});

const deleteRoute = route({
  method: 'POST',
  path: 'config/model-server/delete',
  access: { permission: SK.server },
  summary: 'Delete a model server (refused while a strategy uses it)',
  body: idBody,
  reply: IdReply,
  handler: async (ctx) => {
    const { id } = ctx.body;
    const before = await mustFind(modelServer, ctx, id);
    const used = await ctx.db.query<{ name: string }>(
      `SELECT name FROM config_model_strategy WHERE model_server_id = $1 ORDER BY id LIMIT 3`,
      [id],
    );
    if (used.rows.length) {
      const names = used.rows.map((r) => `"${r.name}"`).join(', ');
      throw conflict(`model strategies ${names} use this server: change them first / 模型策略 ${names} 正在使用该服务，请先修改`);
    }
    await ctx.db.query(`DELETE FROM config_model_server WHERE id = $1`, [id]);
    await ctx.audit({ action: 'delete', resource: 'config_model_server', targetId: id, before });
    return { id };
  },
});

const testRoute: RouteDef = {
  method: 'POST',
  path: 'config/model-server/test',
  access: { permission: SK.server },
  summary:
    'Test connection: one short chat call (and embeddings when marked) under the outbound-call policy; the result is kept on the row. 50200 with a short classified reason when it fails (never the server\'s reply)',
  body: idBody,
  // raw: the call to the model server runs outside a transaction (it may take the server's timeout)
  reply: Type.Object({
    ok: Type.Boolean(),
    latency_ms: Type.Number(),
    model: Type.String(),
    reply: Type.String({ description: "a few words of the model's reply" }),
    error: Type.String(),
    embeddings: Nullable(Type.Object({ ok: Type.Boolean(), dimensions: Type.Integer(), error: Type.String() })),
  }),
  raw: 'stream',
  handler: async (ctx) => {
    const { id } = check(idBody, { ...((ctx.req.body as object) ?? {}) });
    const r = await testConnection(ctx.db, id, { log: ctx.req.log });
    const message = r.ok ? `ok · ${r.latency_ms} ms` : r.error;
    await ctx.db.query(`UPDATE config_model_server SET last_test_ok = $2, last_test_at = now(), last_test_message = $3 WHERE id = $1`, [
      id,
      r.ok,
      message.slice(0, 500),
    ]);
    if (!r.ok) throw new AppError(Code.UPSTREAM, bilingualPrefix('connection failed: ', '连接失败：', r.error), r);
    return sendOk(ctx.reply, r);
  },
};

const optionsRoute = route({
  method: 'GET',
  path: 'model-server/options',
  // the pages with a model server picker: strategies, prompts, the playground, assistants
  access: { permission: [SK.server, SK.modelStrategy, SK.prompt, SK.playground, K.assistant, K.assistantAdd, K.assistantEdit] },
  summary: 'Enabled model servers for pickers: id and name only',
  reply: OptionList({}),
  handler: async (ctx) => (await listModelServers(ctx.db, { enabledOnly: true })).map((s) => ({ id: s.id, name: `${s.name} (${s.model})` })),
});

modelServer.actions = [createRoute, updateRoute, deleteRoute, testRoute, optionsRoute];

/** The model call log: one row per attempt, test, embeddings call and fallback reply (read only). */
export const modelCall: ResourceDef = {
  name: 'model-call',
  table: 'model_call',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    created_at: F.createdAt(),
    model_server_id: { schema: ID, nullable: true, filter: 'eq' },
    server_name: F.str(100),
    model: F.str(100),
    kind: F.enumOf(['chat', 'embed', 'test']),
    shop_id: { schema: ID, nullable: true, filter: 'eq' },
    shop_name: F.shopName(),
    channel: { ...F.enumOf(CHANNELS), nullable: true },
    session_key: F.str(200, { filter: 'eq' }),
    strategy_id: { schema: ID, nullable: true, filter: 'eq' },
    divert_id: { schema: ID, nullable: true, filter: 'eq' },
    attempt: F.int(1, 100),
    stream: F.bool(),
    outcome: F.enumOf(['ok', 'error', 'timeout', 'aborted', 'fallback']),
    error: F.str(1000),
    latency_ms: F.int(0, 2147483647, { sort: true }),
    prompt_tokens: F.int(0, 2147483647),
    completion_tokens: F.int(0, 2147483647),
    total_tokens: F.int(0, 2147483647, { sort: true }),
    /** at the server's prices per million tokens when the call was made (0: not priced) */
    cost: { schema: { type: 'number' }, select: 't.cost::float8', sort: true },
  },
  operations: { list: { permission: SK.server } },
};
