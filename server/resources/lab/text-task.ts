/**
 * Test tasks and rating tasks (intelligent_text script management): a dataset run against a
 * chat assistant or a prompt, answered by the AI engine and scored (docs/modules/lab.md "Runs").
 * Status rules: task-status.ts. Runs are work-engine jobs (run-job.ts): an immediate task starts
 * when saved, a scheduled one at `scheduled_at` (run-ticker.ts), a manual one by `start`; the
 * results are `<task table>_result` rows written by the run as it goes.
 */
import { Type } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { NoQuery, OptionList } from '../../http/typebox.js';
import { conflict, invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { listRows } from '../engine/list.js';
import { pageReply } from '../../http/list.js';
import { DATE_PARAM, ID, listQuerySchema, rowSchema, type Fields } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { mustExistIn, statusRoutes, timestampSets } from './common.js';
import { deleteRoute } from '../engine/routes.js';
import { batchActionRoute } from '../engine/batch-actions.js';
import { LK, allTaskKeys, type TaskKeys } from './keys.js';
import { compareRoute } from './run-compare.js';
import { resultDef } from './run-results.js';
import { RUN_AREAS, startRun } from './run-start.js';
import { versionCompareRoute } from './version-compare.js';
import { TASK_MODES, TASK_STATUSES, canDelete, canEdit, initialStatus, type TaskMode, type TaskStatus } from './task-status.js';

interface Area {
  name: string;
  table: 'text_task' | 'text_rating_task';
  datasetTable: string;
  keys: TaskKeys;
  /** the page of a task's run comparison (its detail page, `:a` the task) */
  comparePath: string;
}

const serverName = (col: string) => `(SELECT m.name FROM config_model_server m WHERE m.id = t.${col})`;

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
      /** a pinned prompt version (prompt/versions): its text answers instead of `prompt`, even after the prompt is edited */
      prompt_version_id: { schema: ID, nullable: true, filter: 'eq' },
      prompt_version_label: {
        schema: { type: 'string' },
        nullable: true,
        virtual: true,
        select: "(SELECT v.name || ' v' || v.version FROM prompt_version v WHERE v.id = t.prompt_version_id)",
      },
      /** the model server that answers (none: the built-in responder) */
      model_server_id: { schema: ID, nullable: true, filter: 'eq' },
      model_server_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: serverName('model_server_id') },
      /** the model server that judges answers where the exit code needs a semantic score (none: similarity only) */
      judge_model_server_id: { schema: ID, nullable: true },
      judge_model_server_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: serverName('judge_model_server_id') },
      /** the judge's instruction (empty: the default one, server/ai/scoring/judge.ts); the judge must still reply with {"score", "reason"} */
      judge_prompt: F.text(4000, { nullable: true, detailOnly: true }),
      /** whose knowledge answers (default: the assistant's shop) */
      shop_id: { schema: ID, nullable: true, filter: 'eq' },
      shop_name: F.shopName(),
      /** pass mark of the semantic scores (similarity, judge), 0…1 */
      pass_threshold: { schema: { type: 'number', minimum: 0, maximum: 1 }, select: 't.pass_threshold::float8' },
      /** the model name of tasks made before model servers (read only) */
      model: { schema: { type: 'string' }, readOnly: true },
      mode: F.enumOf(TASK_MODES),
      scheduled_at: { schema: DATE_PARAM, nullable: true, sort: true },
      status: F.enumOf(TASK_STATUSES, { serverSet: true }),
      total: { schema: { type: 'integer' }, serverSet: true },
      done: { schema: { type: 'integer' }, readOnly: true },
      progress: { schema: { type: 'integer' }, virtual: true, select: 'CASE WHEN t.total > 0 THEN (t.done * 100 / t.total) ELSE 0 END' },
      passed: { schema: { type: 'integer' }, readOnly: true },
      /** questions with no answer to score (the model failed, timed out, a fallback reply stood in): counted apart from the fails */
      errors: { schema: { type: 'integer' }, readOnly: true },
      /** what the run's model calls cost (answers and judge) at the servers' prices */
      cost: { schema: { type: 'number' }, readOnly: true, select: 't.cost::float8' },
      pass_rate: { schema: { type: 'number' }, nullable: true, virtual: true, select: 'CASE WHEN t.done > 0 THEN round(t.passed * 100.0 / t.done, 1)::float8 END', sort: true },
      avg_score: { schema: { type: 'number' }, nullable: true, readOnly: true, select: 't.avg_score::float8', sort: true },
      judge_tokens: { schema: { type: 'integer' }, readOnly: true },
      run_error: { schema: { type: 'string' }, readOnly: true },
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
      await mustExistIn(ctx, 'config_model_server', v.model_server_id, 'model_server_id');
      await mustExistIn(ctx, 'config_model_server', v.judge_model_server_id, 'judge_model_server_id');
      await mustExistIn(ctx, 'shop', v.shop_id, 'shop_id');
      await mustExistIn(ctx, 'prompt_version', v.prompt_version_id, 'prompt_version_id');
      const assistant = 'assistant_id' in v ? v.assistant_id : before?.assistant_id;
      const prompt = 'prompt' in v ? v.prompt : before?.prompt;
      const pinned = 'prompt_version_id' in v ? v.prompt_version_id : before?.prompt_version_id;
      if (!assistant && !pinned && !(typeof prompt === 'string' && prompt.trim())) {
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
    // an immediate task starts when saved: its run is enqueued in the create transaction
    afterCreate: async (row, ctx) => {
      if (row.status === 'running') await startRun(ctx.db, ctx.req.server.jobs.enqueue, RUN_AREAS[a.table], Number(row.id), ctx.user?.id ?? null);
    },
  };
}

/** `GET <name>/result/list?task_id=`: the per-sample results of one task. */
function resultListRoute(a: Area): RouteDef {
  const def = resultDef(a);
  const query = listQuerySchema(def);
  return route({
    method: 'GET',
    path: `${a.name}/result/list`,
    access: { permission: [a.keys.result, a.keys.detail] },
    summary: 'Per-sample results of a task (task_id required): answer, expected answer, outcome (pass, fail, error), the deciding scorer and its reason, each score, responder and server, tokens, cost, citations, trace',
    // the engine's list query of the results (built from the declaration: a record) with task_id required
    query: Type.Unsafe<Fields & { task_id: number }>({ ...query, required: ['task_id'] }),
    reply: pageReply(rowSchema(def, true)),
    handler: (ctx) => listRows(def, ctx.db, ctx.query),
  });
}

function buildArea(a: Area): ResourceDef {
  const def = taskResource(a);
  const del = deleteRoute(def, a.keys.edit, async (row) => {
    if (!canDelete(row.status as TaskStatus)) throw conflict('pause or stop a running task before deleting it / 请先暂停或终止进行中的任务');
  });
  // start (and resume) enqueues the run in the same transaction
  const [start, pause, stop] = statusRoutes(def, a.keys.edit, timestampSets, async (ctx, id, to) => {
    if (to === 'running') await startRun(ctx.db, ctx.req.server.jobs.enqueue, RUN_AREAS[a.table], id, ctx.user?.id ?? null);
  });
  def.actions = [
    del,
    start,
    pause,
    stop,
    batchActionRoute(def, a.keys.edit, { start, pause, stop, delete: del }),
    resultListRoute(a),
    compareRoute({ name: a.name, table: a.table, keys: a.keys }),
    versionCompareRoute(a),
  ];
  return def;
}

export const testTask = buildArea({ name: 'script-task', table: 'text_task', datasetTable: 'text_dataset', keys: LK.testTask, comparePath: '/intelligent_text/scriptManage/taskList/detail/:a' });
export const ratingTask = buildArea({ name: 'rating-task', table: 'text_rating_task', datasetTable: 'text_rating_dataset', keys: LK.ratingTask, comparePath: '/intelligent_text/scriptManage/ratingTaskList/detail/:a' });

/** Assistants for the task forms' picker (the assistant pages' own list needs their key). */
export const assistantOptionsRoute = route({
  method: 'GET',
  path: 'script-task/assistant-options',
  access: { permission: [...allTaskKeys(LK.testTask), ...allTaskKeys(LK.ratingTask)] },
  summary: 'Chat assistants for the task forms: [{ id, name, model }]',
  query: NoQuery,
  reply: OptionList({ model: Type.String() }),
  handler: async ({ db }) => (await db.query<{ id: number; name: string; model: string }>('SELECT id, name, model FROM chat_assistant ORDER BY id DESC LIMIT 1000')).rows,
});

/** Model servers for the task forms' pickers (answering and judge model); configCenter/server needs its own key. */
export const modelServerOptionsRoute = route({
  method: 'GET',
  path: 'script-task/model-server-options',
  access: { permission: [...allTaskKeys(LK.testTask), ...allTaskKeys(LK.ratingTask)] },
  summary: 'Model servers for the task forms: [{ id, name, model, enabled, label }] (never a key)',
  query: NoQuery,
  reply: OptionList({ model: Type.String(), enabled: Type.Boolean(), label: Type.String() }),
  handler: async ({ db }) =>
    (
      await db.query<{ id: number; name: string; model: string; enabled: boolean; label: string }>(
        `SELECT id, name, model, enabled, name || ' (' || model || ')' || CASE WHEN enabled THEN '' ELSE ' ⏸' END AS label
           FROM config_model_server ORDER BY enabled DESC, id DESC LIMIT 1000`,
      )
    ).rows,
});

/** Shops for the task forms' picker (whose knowledge answers); the shop pages need their own keys. */
export const shopOptionsRoute = route({
  method: 'GET',
  path: 'script-task/shop-options',
  access: { permission: [...allTaskKeys(LK.testTask), ...allTaskKeys(LK.ratingTask)] },
  summary: 'Shops for the task forms: [{ id, name, label }], newest first, at most `limit`',
  query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 1000 })) }, { additionalProperties: false }),
  reply: OptionList({ label: Type.String() }),
  handler: async ({ db, query }) =>
    (await db.query<{ id: number; name: string; label: string }>(`SELECT id, name, id || '-' || name AS label FROM shop ORDER BY id DESC LIMIT $1`, [query.limit ?? 1000])).rows,
});
