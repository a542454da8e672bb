/**
 * Test tasks and rating tasks (intelligent_text script management): a dataset run against a
 * chat assistant or a prompt. Status rules: task-status.ts; per-sample results in
 * `<task table>_result`, written by `advance` (the simulated runner, simulate.ts).
 */
import type { RouteContext, RouteDef } from '../../http/route.js';
import { conflict, invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { listRows } from '../engine/list.js';
import { mustFind, updateRow } from '../engine/routes.js';
import { DATE_PARAM, ID, listQuerySchema, pageSchema, rowSchema } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { guardedDelete, mustExistIn, statusRoutes, timestampSets, transition } from './common.js';
import { LK, allTaskKeys, type TaskKeys } from './keys.js';
import type { Sample } from './samples.js';
import { simulate } from './simulate.js';
import { TASK_MODES, TASK_STATUSES, canDelete, canEdit, initialStatus, type TaskMode, type TaskStatus } from './task-status.js';

export const TASK_MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'qwen-max', 'doubao-pro'] as const;

interface Area {
  name: string;
  table: string;
  datasetTable: string;
  keys: TaskKeys;
}

function taskResource(a: Area): ResourceDef {
  const k = a.keys;
  return {
    name: a.name,
    auditName: a.table,
    table: a.table,
    keyword: "to_tsvector('simple', t.name)",
    keywordIds: ['id'],
    defaultSort: { field: 'id', order: 'desc' },
    fields: {
      id: F.id(),
      name: F.str(100, { required: true, sort: true }, 1),
      dataset_id: { schema: ID, required: true, filter: 'eq' },
      dataset_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: `(SELECT d.name FROM ${a.datasetTable} d WHERE d.id = t.dataset_id)` },
      assistant_id: { schema: ID, nullable: true, filter: 'eq' },
      assistant_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT c.name FROM chat_assistant c WHERE c.id = t.assistant_id)' },
      prompt: F.text(20000, { detailOnly: true }),
      model: F.enumOf(TASK_MODELS),
      mode: F.enumOf(TASK_MODES),
      scheduled_at: { schema: DATE_PARAM, nullable: true },
      status: F.enumOf(TASK_STATUSES, { serverSet: true }),
      total: { schema: { type: 'integer' }, serverSet: true },
      done: { schema: { type: 'integer' }, readOnly: true },
      progress: { schema: { type: 'integer' }, virtual: true, select: 'CASE WHEN t.total > 0 THEN (t.done * 100 / t.total) ELSE 0 END' },
      avg_score: { schema: { type: 'number' }, nullable: true, readOnly: true, select: 't.avg_score::float8', sort: true },
      remark: F.str(1000),
      started_at: F.dateTime({ nullable: true, serverSet: true }),
      finished_at: F.dateTime({ nullable: true, readOnly: true }),
      created_at: F.createdAt(),
      updated_at: F.updatedAt(),
    },
    operations: {
      list: { permission: k.page },
      detail: { permission: [k.page, k.detail, k.edit, k.result] },
      create: { permission: k.add },
      update: { permission: k.edit },
    },
    validate: async (v, ctx, mode, before) => {
      if (before && !canEdit(before.status as TaskStatus)) {
        throw conflict(`a ${String(before.status)} task cannot be edited; only pending tasks can / 只有待开始的任务可以编辑`);
      }
      const ds = await mustExistIn(ctx, a.datasetTable, v.dataset_id, 'dataset_id');
      await mustExistIn(ctx, 'chat_assistant', v.assistant_id, 'assistant_id');
      const assistant = 'assistant_id' in v ? v.assistant_id : before?.assistant_id;
      const prompt = 'prompt' in v ? v.prompt : before?.prompt;
      if (!assistant && !(typeof prompt === 'string' && prompt.trim())) {
        throw invalid([{ field: 'prompt', message: 'choose an assistant or write a prompt / 请选择助手或填写提示词' }]);
      }
      const m = (v.mode ?? before?.mode ?? 'manual') as TaskMode;
      const at = 'scheduled_at' in v ? v.scheduled_at : before?.scheduled_at;
      if (m === 'schedule' && !at) throw invalid([{ field: 'scheduled_at', message: 'a scheduled task needs a start time / 定时任务需要开始时间' }]);
      if (ds) v.total = ds.sample_count;
      if (mode === 'create') {
        v.status = initialStatus(m);
        if (v.status === 'running') v.started_at = new Date().toISOString();
      }
    },
  };
}

interface ExitCodeRow {
  code: string;
  need_semantics_score: number;
}

/** The simulated runner's step: results for the next `count` samples; the last one finishes the task. */
function advanceRoute(def: ResourceDef, a: Area): RouteDef {
  return {
    method: 'POST',
    path: `${a.name}/advance`,
    access: { permission: a.keys.edit },
    summary: 'Runner step: evaluate the next `count` samples of a running task (simulated model); the last sample finishes the task',
    body: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: ID, count: { type: 'integer', minimum: 1, maximum: 1000, default: 10 } } },
    get reply() {
      return rowSchema(def);
    },
    handler: async (ctx) => {
      const { id, count = 10 } = ctx.body as { id: number; count?: number };
      const before = await mustFind(def, ctx as RouteContext, id);
      if (before.status !== 'running') throw conflict(`only a running task advances (this one is ${String(before.status)}) / 只有进行中的任务可以执行`);
      const ds = await ctx.db.query<{ samples: Sample[] }>(`SELECT samples FROM ${a.datasetTable} WHERE id = $1`, [before.dataset_id]);
      const samples = ds.rows[0]?.samples ?? [];
      const codes = (await ctx.db.query<ExitCodeRow>('SELECT code, need_semantics_score FROM text_exit_code ORDER BY id')).rows;
      const from = Number(before.done);
      const upto = Math.min(samples.length, from + count);
      for (let i = from; i < upto; i++) {
        const r = simulate(`${a.table}:${id}`, samples[i], codes);
        await ctx.db.query(
          `INSERT INTO ${a.table}_result (task_id, sample_index, input, expected, output, exit_code, score, passed, latency_ms)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (task_id, sample_index) DO NOTHING`,
          [id, i + 1, samples[i].input, samples[i].expected, r.output, r.exit_code, r.score, r.passed, r.latency_ms],
        );
      }
      await ctx.db.query(
        `UPDATE ${a.table} SET done = $2, total = $3, updated_at = now(),
                avg_score = (SELECT round(avg(score), 2) FROM ${a.table}_result WHERE task_id = $1) WHERE id = $1`,
        [id, upto, samples.length],
      );
      if (upto >= samples.length) return transition(def, ctx as RouteContext, id, 'finish', timestampSets);
      return updateRow(def, ctx as RouteContext, id, {}, before, 'advance');
    },
  };
}

const resultDef = (a: Area): ResourceDef => ({
  name: `${a.name}/result`,
  table: `${a.table}_result`,
  defaultSort: { field: 'sample_index', order: 'asc' },
  maxPageSize: 500,
  fields: {
    id: F.id(),
    task_id: { schema: ID, required: true, filter: 'eq' },
    sample_index: { schema: { type: 'integer' }, sort: true },
    input: F.text(),
    expected: F.text(),
    output: F.text(),
    exit_code: { schema: { type: 'string', maxLength: 60 }, nullable: true, filter: 'eq' },
    score: { schema: { type: 'number' }, nullable: true, select: 't.score::float8', filter: 'range', sort: true },
    passed: F.bool(),
    latency_ms: { schema: { type: 'integer' }, sort: true },
    created_at: F.createdAt(),
  },
  operations: {},
});

/** `GET <name>/result/list?task_id=`: the per-sample results of one task. */
function resultListRoute(a: Area): RouteDef {
  const def = resultDef(a);
  const query = listQuerySchema(def);
  return {
    method: 'GET',
    path: `${a.name}/result/list`,
    access: { permission: [a.keys.result, a.keys.detail] },
    summary: 'Per-sample results of a task (task_id required), with exit code and score',
    query: { ...query, required: ['task_id'] },
    reply: pageSchema(rowSchema(def, true)),
    handler: (ctx) => listRows(def, ctx.db, ctx.query as Record<string, unknown>),
  };
}

function buildArea(a: Area): ResourceDef {
  const def = taskResource(a);
  def.actions = [
    guardedDelete(def, a.keys.edit, async (row) => {
      if (!canDelete(row.status as TaskStatus)) throw conflict('pause or stop a running task before deleting it / 请先暂停或终止进行中的任务');
    }),
    ...statusRoutes(def, a.keys.edit, timestampSets),
    advanceRoute(def, a),
    resultListRoute(a),
  ];
  return def;
}

export const testTask = buildArea({ name: 'script-task', table: 'text_task', datasetTable: 'text_dataset', keys: LK.testTask });
export const ratingTask = buildArea({ name: 'rating-task', table: 'text_rating_task', datasetTable: 'text_rating_dataset', keys: LK.ratingTask });

/** Assistants for the task forms' picker (the assistant pages' own list needs their key). */
export const assistantOptionsRoute: RouteDef = {
  method: 'GET',
  path: 'script-task/assistant-options',
  access: { permission: [...allTaskKeys(LK.testTask), ...allTaskKeys(LK.ratingTask)] },
  summary: 'Chat assistants for the task forms: [{ id, name, model }]',
  query: { type: 'object', additionalProperties: false, properties: {} },
  reply: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, model: { type: 'string' } } } },
  handler: async ({ db }) => (await db.query('SELECT id, name, model FROM chat_assistant ORDER BY id DESC LIMIT 1000')).rows,
};
