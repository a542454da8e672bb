/**
 * Test datasets and rating datasets (intelligent_text data center): a name and samples
 * `{ input, expected }`, sent as a list (`samples`) or as JSON lines (`samples_jsonl`).
 */
import type { RouteContext } from '../../http/route.js';
import { conflict, invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import type { ResourceDef } from '../engine/types.js';
import { deleteRoute } from '../engine/routes.js';
import { LK, allTaskKeys, type TaskKeys } from './keys.js';
import { MAX_INPUT, MAX_SAMPLES, MAX_TURNS, checkList, parseJsonl } from './samples.js';

const SAMPLE = {
  type: 'object',
  additionalProperties: false,
  required: ['input'],
  properties: {
    // a question, or a conversation (turns ending with the customer's question; samples.ts checks them)
    input: {
      anyOf: [
        { type: 'string', minLength: 1, maxLength: MAX_INPUT },
        {
          type: 'array',
          minItems: 1,
          maxItems: MAX_TURNS,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['role', 'content'],
            properties: { role: { type: 'string', enum: ['user', 'assistant'] }, content: { type: 'string', minLength: 1, maxLength: MAX_INPUT } },
          },
        },
      ],
    },
    expected: { type: 'string', maxLength: MAX_INPUT },
  },
};

/** Turns `samples` / `samples_jsonl` of a body into the stored JSON and count (40001 on the field). */
async function normaliseSamples(v: Record<string, unknown>, mode: 'create' | 'update'): Promise<void> {
  const format = v.sample_format;
  const jsonl = v.samples_jsonl;
  const list = v.samples;
  delete v.sample_format;
  delete v.samples_jsonl;
  delete v.samples;
  const useJsonl = typeof jsonl === 'string' && (format === 'jsonl' || list === undefined);
  if (useJsonl) {
    const r = parseJsonl(jsonl);
    if (!r.ok) throw invalid([{ field: 'samples_jsonl', message: r.message }]);
    v.samples = JSON.stringify(r.samples);
    v.sample_count = r.samples.length;
  } else if (Array.isArray(list)) {
    const r = checkList(list);
    if (!r.ok) throw invalid([{ field: 'samples', message: r.message }]);
    v.samples = JSON.stringify(r.samples);
    v.sample_count = r.samples.length;
  } else if (mode === 'create') {
    throw invalid([{ field: 'samples', message: 'add samples as a list or as JSON lines / 请添加样本（列表或 JSON Lines）' }]);
  }
}

function datasetResource(name: string, table: string, taskTable: string, keys: { page: string; add: string; edit: string }, task: TaskKeys): ResourceDef {
  const def: ResourceDef = {
    name,
    auditName: table,
    table,
    keyword: "to_tsvector('simple', t.name)",
    keywordIds: ['id'],
    defaultSort: { field: 'id', order: 'desc' },
    maxPageSize: 1000,
    fields: {
      id: F.id(),
      name: F.str(100, { required: true, sort: true }, 1),
      description: F.str(1000),
      sample_format: { schema: { type: 'string', enum: ['list', 'jsonl'] }, select: "'list'", detailOnly: true },
      samples: { schema: { type: 'array', maxItems: MAX_SAMPLES, items: SAMPLE }, detailOnly: true },
      samples_jsonl: {
        schema: { type: 'string', maxLength: MAX_SAMPLES * (MAX_INPUT + 40) },
        detailOnly: true,
        select: "(SELECT coalesce(string_agg(x::text, E'\\n' ORDER BY n), '') FROM jsonb_array_elements(t.samples) WITH ORDINALITY AS e(x, n))",
      },
      sample_count: { schema: { type: 'integer' }, serverSet: true, sort: true },
      task_count: { schema: { type: 'integer' }, virtual: true, select: `(SELECT count(*)::int FROM ${taskTable} k WHERE k.dataset_id = t.id)` },
      created_at: F.createdAt(),
      updated_at: F.updatedAt(),
    },
    operations: {
      // the task forms pick a dataset from this list
      list: { permission: [keys.page, task.add, task.edit, task.detail] },
      detail: { permission: [keys.page, keys.edit, ...allTaskKeys(task)] },
      create: { permission: keys.add },
      update: { permission: keys.edit },
    },
    validate: async (v, _ctx, mode) => normaliseSamples(v, mode),
  };
  def.actions = [
    deleteRoute(def, keys.edit, async (row, ctx: RouteContext) => {
      const r = await ctx.db.query(`SELECT 1 FROM ${taskTable} WHERE dataset_id = $1 LIMIT 1`, [row.id]);
      if (r.rows.length) throw conflict('the dataset is used by a task / 数据集已被任务使用，不能删除');
    }),
  ];
  return def;
}

export const textDataset = datasetResource('data-set', 'text_dataset', 'text_task', LK.dataSet, LK.testTask);
export const ratingDataset = datasetResource('rating-data-set', 'text_rating_dataset', 'text_rating_task', LK.ratingDataSet, LK.ratingTask);

/** Exit codes (spec section 3: code, need semantics score). */
export const exitCode: ResourceDef = {
  name: 'exit-code',
  auditName: 'text_exit_code',
  table: 'text_exit_code',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'asc' },
  fields: {
    id: F.id(),
    code: { schema: { type: 'string', minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9_.:-]+$' }, required: true, filter: 'eq', sort: true },
    description: F.str(500),
    need_semantics_score: F.enumOf([0, 1]),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [LK.exitCode, ...allTaskKeys(LK.testTask), ...allTaskKeys(LK.ratingTask)] },
    detail: { permission: LK.exitCode },
    create: { permission: LK.exitCode },
    update: { permission: LK.exitCode },
    delete: { permission: LK.exitCode },
  },
  validate: async (v, ctx, _mode, before) => {
    if (typeof v.code !== 'string' || v.code === before?.code) return;
    const r = await ctx.db.query('SELECT 1 FROM text_exit_code WHERE code = $1', [v.code]);
    if (r.rows.length) throw invalid([{ field: 'code', message: `exit code ${v.code} already exists / 退出码已存在` }]);
  },
};
