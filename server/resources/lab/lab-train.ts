/** Lab (panda_descendant) datasets and experiment (training) tasks; runs: train-job.ts, the trainer: trainer.ts. */
import { conflict, invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { DATE_PARAM, ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { mustExistIn, statusRoutes, timestampSets } from './common.js';
import { deleteRoute } from '../engine/routes.js';
import { batchActionRoute } from '../engine/batch-actions.js';
import { LK } from './keys.js';
import { RUN_AREAS, startRun } from './run-start.js';
import { enqueueCancel } from './trainer-cancel.js';
import { MAX_EXAMPLES, parseExamples } from './trainer-examples.js';
import { registerModelRoute, trainerOptionsRoute } from './trainer-routes.js';
import { SANDBOX_PROVIDER } from './trainer.js';
import { TASK_MODES, TASK_STATUSES, canDelete, canEdit, initialStatus, type TaskMode, type TaskStatus } from './task-status.js';

export const LAB_DATA_TYPES = ['dialogue', 'qa', 'classification', 'preference'] as const;
export const BASE_MODELS = ['qwen2.5-7b', 'llama-3.1-8b', 'glm-4-9b', 'mistral-7b'] as const;

export const labDataset: ResourceDef = {
  name: 'lab/dataset',
  auditName: 'lab_dataset',
  table: 'lab_dataset',
  keyword: "to_tsvector('simple', t.name)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  maxPageSize: 1000,
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    data_type: F.enumOf(LAB_DATA_TYPES, { required: true }),
    description: F.str(1000),
    source_url: F.url(),
    sample_count: F.int(0, 100000000, { sort: true }),
    /** the training examples (chat format), sent as JSON lines in `examples_jsonl` */
    examples: { schema: { type: 'array', maxItems: MAX_EXAMPLES }, serverSet: true, detailOnly: true },
    examples_jsonl: {
      schema: { type: 'string', maxLength: 20_000_000 },
      detailOnly: true,
      select: "(SELECT coalesce(string_agg(x::text, E'\\n' ORDER BY n), '') FROM jsonb_array_elements(t.examples) WITH ORDINALITY AS e(x, n))",
    },
    example_count: { schema: { type: 'integer' }, virtual: true, select: 'jsonb_array_length(t.examples)' },
    task_count: { schema: { type: 'integer' }, virtual: true, select: '(SELECT count(*)::int FROM lab_train_task k WHERE k.dataset_id = t.id)' },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [LK.labDataset.page, LK.trainTask.add, LK.trainTask.edit, LK.trainTask.detail] },
    detail: { permission: [LK.labDataset.page, LK.labDataset.update] },
    create: { permission: LK.labDataset.add },
    update: { permission: LK.labDataset.update },
  },
  // examples_jsonl → examples (40001 naming the line); their count is the sample count
  validate: async (v) => {
    if (!('examples_jsonl' in v)) return;
    const r = parseExamples(String(v.examples_jsonl ?? ''));
    delete v.examples_jsonl;
    if (!r.ok) throw invalid([{ field: 'examples_jsonl', message: r.message }]);
    v.examples = JSON.stringify(r.examples);
    if (r.examples.length) v.sample_count = r.examples.length;
  },
};
labDataset.actions = [
  deleteRoute(labDataset, LK.labDataset.update, async (row, ctx) => {
    const r = await ctx.db.query('SELECT 1 FROM lab_train_task WHERE dataset_id = $1 LIMIT 1', [row.id]);
    if (r.rows.length) throw conflict('the dataset is used by an experiment task / 数据集已被实验任务使用，不能删除');
  }),
];

/** SQL: the server that trains `t` (the one its steps went to, its choice, else the first that can) */
const TRAINER_ID = `COALESCE(t.remote_server_id, t.trainer_server_id,
  (SELECT f.id FROM config_model_server f WHERE f.enabled AND f.supports_fine_tuning ORDER BY f.id LIMIT 1))`;
const TRAINER_MODE = `COALESCE((SELECT CASE WHEN s.provider = '${SANDBOX_PROVIDER}' THEN 'sandbox' ELSE 'remote' END
  FROM config_model_server s WHERE s.id = ${TRAINER_ID}), 'none')`;

export const trainTask: ResourceDef = {
  name: 'lab/train-task',
  auditName: 'lab_train_task',
  table: 'lab_train_task',
  keyword: "to_tsvector('simple', t.name)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    dataset_id: { schema: ID, required: true, filter: 'eq' },
    dataset_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT d.name FROM lab_dataset d WHERE d.id = t.dataset_id)' },
    base_model: F.enumOf(BASE_MODELS, { required: true }),
    epochs: F.int(1, 100),
    learning_rate: { schema: { type: 'number', exclusiveMinimum: 0, maximum: 1 }, select: 't.learning_rate::float8' },
    mode: F.enumOf(TASK_MODES),
    scheduled_at: { schema: DATE_PARAM, nullable: true, sort: true },
    status: F.enumOf(TASK_STATUSES, { serverSet: true }),
    progress: { schema: { type: 'integer' }, readOnly: true },
    /** the model server that trains (none: the first enabled one that supports fine-tuning) */
    trainer_server_id: { schema: ID, nullable: true, filter: 'eq' },
    trainer_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: `(SELECT s.name FROM config_model_server s WHERE s.id = ${TRAINER_ID})` },
    /** sandbox (the built-in emulator), remote (a real trainer) or none */
    trainer_mode: { schema: { type: 'string', enum: ['sandbox', 'remote', 'none'] }, virtual: true, select: TRAINER_MODE },
    /** the remote job's status as the trainer last reported it */
    train_status: { schema: { type: 'string' }, readOnly: true, filter: 'eq' },
    remote_job_id: { schema: { type: 'string' }, readOnly: true },
    fine_tuned_model: { schema: { type: 'string' }, readOnly: true },
    trained_tokens: { schema: { type: 'integer' }, nullable: true, readOnly: true, select: 't.trained_tokens::float8' },
    trainer_note: { schema: { type: 'string' }, readOnly: true },
    trainer_contact_at: F.dateTime({ nullable: true, readOnly: true }),
    result_model_server_id: { schema: { type: 'integer' }, nullable: true, readOnly: true },
    /** why the last run stopped (e.g. no trainer connected, the trainer's reason of a failure) */
    run_error: { schema: { type: 'string' }, readOnly: true },
    remark: F.str(1000),
    started_at: F.dateTime({ nullable: true, serverSet: true }),
    finished_at: F.dateTime({ nullable: true, readOnly: true }),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: LK.trainTask.page },
    detail: { permission: [LK.trainTask.page, LK.trainTask.detail, LK.trainTask.edit] },
    create: { permission: LK.trainTask.add },
    update: { permission: LK.trainTask.edit },
  },
  validate: async (v, ctx, mode, before) => {
    if (before && !canEdit(before.status as TaskStatus)) {
      throw conflict(`a ${String(before.status)} task cannot be edited; only pending tasks can / 只有待开始的任务可以编辑`);
    }
    await mustExistIn(ctx, 'lab_dataset', v.dataset_id, 'dataset_id');
    const trainer = await mustExistIn(ctx, 'config_model_server', v.trainer_server_id, 'trainer_server_id');
    if (trainer && !trainer.supports_fine_tuning) {
      throw invalid([{ field: 'trainer_server_id', message: 'this model server is not marked as able to fine-tune / 该模型服务未标记为支持微调' }]);
    }
    const m = (v.mode ?? before?.mode ?? 'manual') as TaskMode;
    const at = 'scheduled_at' in v ? v.scheduled_at : before?.scheduled_at;
    if (m === 'schedule' && !at) throw invalid([{ field: 'scheduled_at', message: 'a scheduled task needs a start time / 定时任务需要开始时间' }]);
    if (mode === 'create') {
      v.status = initialStatus(m);
      if (v.status === 'running') v.started_at = new Date().toISOString();
    }
  },
  // runs are work-engine jobs (train-job.ts): an immediate task's run is enqueued with it
  afterCreate: async (row, ctx) => {
    if (row.status === 'running') await startRun(ctx.db, ctx.req.server.jobs.enqueue, RUN_AREAS.lab_train_task, Number(row.id), ctx.user?.id ?? null);
  },
};
const trainDelete = deleteRoute(trainTask, LK.trainTask.edit, async (row) => {
  if (!canDelete(row.status as TaskStatus)) throw conflict('pause or stop a running task before deleting it / 请先暂停或终止进行中的任务');
});
const [trainStart, trainPause, trainStop] = statusRoutes(trainTask, LK.trainTask.edit, timestampSets, async (ctx, id, to) => {
  if (to === 'running') await startRun(ctx.db, ctx.req.server.jobs.enqueue, RUN_AREAS.lab_train_task, id, ctx.user?.id ?? null);
  // a stopped task's remote job is cancelled by a job (no trainer call inside the request)
  if (to === 'stopped') await enqueueCancel(ctx.db, ctx.req.server.jobs.enqueue, id, ctx.user?.id ?? null);
});
trainTask.actions = [
  trainDelete,
  trainStart,
  trainPause,
  trainStop,
  batchActionRoute(trainTask, LK.trainTask.edit, { start: trainStart, pause: trainPause, stop: trainStop, delete: trainDelete }),
  trainerOptionsRoute,
  registerModelRoute,
];
