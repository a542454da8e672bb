/**
 * The trainer's routes on experiment tasks: the trainer picker, the remote job's events, and
 * "add as model server" — the fine-tuned model of a succeeded task registered as a model server
 * in one click (docs/modules/lab.md "Runs").
 */
import { Type } from '@sinclair/typebox';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { NoQuery, OptionList } from '../../http/typebox.js';
import { F } from '../engine/fields.js';
import { ID, Id } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { SK } from '../sessions/keys.js';
import { LK } from './keys.js';
import { SANDBOX_PROVIDER } from './trainer.js';

const TASK_KEYS = [LK.trainTask.page, LK.trainTask.add, LK.trainTask.edit, LK.trainTask.detail];

/** The remote job's events as the trainer reported them (read only). */
export const trainEvent: ResourceDef = {
  name: 'lab/train-event',
  table: 'lab_train_event',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  maxPageSize: 500,
  fields: {
    id: F.id(),
    task_id: { schema: ID, filter: 'eq' },
    remote_job_id: F.str(200),
    event_id: F.str(200),
    level: F.str(10, { filter: 'eq' }),
    type: F.str(20),
    message: F.str(2000),
    reported_at: F.dateTime({ nullable: true, readOnly: true }),
    created_at: F.createdAt(),
  },
  operations: { list: { permission: [LK.trainTask.page, LK.trainTask.detail] } },
};

export const trainerOptionsRoute = route({
  method: 'GET',
  path: 'lab/train-task/trainer-options',
  access: { permission: TASK_KEYS },
  summary: 'Model servers that can fine-tune, for the task form: [{ id, name, label, sandbox }] (never a key)',
  query: NoQuery,
  reply: OptionList({ label: Type.String(), sandbox: Type.Boolean() }),
  handler: async ({ db }) =>
    (
      await db.query<{ id: number; name: string; label: string; sandbox: boolean }>(
        `SELECT id, name, provider = $1 AS sandbox,
                name || CASE WHEN provider = $1 THEN ' [sandbox / 沙箱]' ELSE '' END || CASE WHEN enabled THEN '' ELSE ' ⏸' END AS label
           FROM config_model_server WHERE supports_fine_tuning ORDER BY enabled DESC, id LIMIT 1000`,
        [SANDBOX_PROVIDER],
      )
    ).rows,
});

interface TaskForModel {
  id: number;
  name: string;
  base_model: string;
  train_status: string;
  fine_tuned_model: string;
  result_model_server_id: number | null;
  server_id: number | null;
}

export const registerModelRoute = route({
  method: 'POST',
  path: 'lab/train-task/register-model',
  access: { permission: LK.trainTask.edit },
  summary:
    "Add a succeeded task's fine-tuned model as a model server (the trainer's endpoint and encrypted key, the new model name); the same server again when it was added before. Needs the model-server key too (40003)",
  body: Type.Object({ id: Id }, { additionalProperties: false }),
  reply: Type.Object({ model_server_id: Type.Integer(), created: Type.Boolean(), sandbox: Type.Boolean() }),
  handler: async (ctx) => {
    const u = ctx.user;
    if (!u || !(u.isSuperAdmin || u.keys.has(SK.server))) throw forbidden();
    const r = await ctx.db.query<TaskForModel>(
      `SELECT t.id, t.name, t.base_model, t.train_status, t.fine_tuned_model, t.result_model_server_id,
              (SELECT s.id FROM config_model_server s WHERE s.id = t.remote_server_id) AS server_id
         FROM lab_train_task t WHERE t.id = $1 FOR UPDATE`,
      [ctx.body.id],
    );
    const task = r.rows[0];
    if (!task) throw notFound('experiment task');
    if (task.result_model_server_id) {
      const s = await ctx.db.query<{ provider: string }>('SELECT provider FROM config_model_server WHERE id = $1', [task.result_model_server_id]);
      return { model_server_id: task.result_model_server_id, created: false, sandbox: s.rows[0]?.provider === SANDBOX_PROVIDER };
    }
    if (task.train_status !== 'succeeded' || !task.fine_tuned_model) {
      throw conflict('only a task whose training succeeded has a model to add / 只有训练成功的任务才能添加模型');
    }
    if (!task.server_id) throw conflict('the trainer server was deleted: its endpoint and key are unknown / 训练服务已删除，无法得知地址与密钥');
    const s = (
      await ctx.db.query<{ provider: string; endpoint: string; api_key_enc: string; api_key_mask: string; timeout_ms: number; max_tokens: number; max_concurrency: number }>(
        'SELECT provider, endpoint, api_key_enc, api_key_mask, timeout_ms, max_tokens, max_concurrency FROM config_model_server WHERE id = $1',
        [task.server_id],
      )
    ).rows[0];
    const sandbox = s.provider === SANDBOX_PROVIDER;
    const name = `${sandbox ? '[Sandbox / 沙箱] ' : ''}${task.name}`.slice(0, 100);
    const remark = sandbox
      ? `fine-tuned in the sandbox by experiment task #${task.id}: the sandbox trains nothing, this server cannot answer (disabled) / 由实验任务 #${task.id} 在沙箱中训练：沙箱不做真实训练，该服务无法应答（已停用）`
      : `fine-tuned by experiment task #${task.id} from ${task.base_model} / 由实验任务 #${task.id} 基于 ${task.base_model} 微调`;
    const ins = await ctx.db.query<{ id: number }>(
      `INSERT INTO config_model_server (name, provider, endpoint, model, api_key_enc, api_key_mask, timeout_ms, max_tokens, max_concurrency, enabled, remark)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [name, s.provider, s.endpoint, task.fine_tuned_model.slice(0, 100), s.api_key_enc, s.api_key_mask, s.timeout_ms, s.max_tokens, s.max_concurrency, !sandbox, remark.slice(0, 500)],
    );
    const id = ins.rows[0].id;
    await ctx.db.query('UPDATE lab_train_task SET result_model_server_id = $2, updated_at = now() WHERE id = $1', [task.id, id]);
    await ctx.audit({
      action: 'create',
      resource: 'config_model_server',
      targetId: id,
      after: { id, name, provider: s.provider, endpoint: s.endpoint, model: task.fine_tuned_model, key_masked: s.api_key_mask, enabled: !sandbox, from_task: task.id },
    });
    await ctx.audit({ action: 'register_model', resource: 'lab_train_task', targetId: task.id, after: { result_model_server_id: id } });
    return { model_server_id: id, created: true, sandbox };
  },
});
