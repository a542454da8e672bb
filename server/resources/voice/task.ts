import type { RouteContext, RouteDef } from '../../http/route.js';
import { conflict, invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { mustFind, updateRow } from '../engine/routes.js';
import { DATE_PARAM, ID, rowSchema } from '../engine/schemas.js';
import type { ResourceDef, Row } from '../engine/types.js';
import { deleteRoute, mustExistAll } from './common.js';
import { HHMM_PATTERN, VK } from './keys.js';
import { EDITABLE_STATUSES, TASK_ACTIONS, TASK_MODES, TASK_STATUSES, applyAction, tick, zonedTime, type TaskAction, type TaskState, type TaskStatus } from './task-status.js';

/**
 * Outbound call tasks: a scene, the numbers that call out, a mode (manual / immediate /
 * schedule), a status (pending / running / finished / stopped / pausing), a start time and the
 * daily latest call time (`HH:MM` in the scene's time zone). Status changes only through the
 * actions below (task-status.ts holds the rules).
 */
export const callTask: ResourceDef = {
  name: 'call-center/task',
  auditName: 'call_task',
  table: 'call_task',
  keyword: "to_tsvector('simple', t.name)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    name: F.str(100, { required: true, sort: true }, 1),
    scene_id: { schema: ID, required: true, filter: 'eq' },
    scene_name: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT s.name FROM voice_scene s WHERE s.id = t.scene_id)' },
    time_zone: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT s.time_zone FROM voice_scene s WHERE s.id = t.scene_id)' },
    number_ids: { schema: { type: 'array', items: ID, minItems: 1, maxItems: 20, uniqueItems: true }, required: true },
    number_list: {
      schema: { type: 'array', items: { type: 'string' } },
      virtual: true,
      select: "(SELECT coalesce(array_agg(n.phone ORDER BY n.id), '{}') FROM call_number n WHERE n.id = ANY(t.number_ids))",
    },
    mode: F.enumOf(TASK_MODES, { required: true }),
    status: { ...F.enumOf(TASK_STATUSES), serverSet: true },
    // ISO 8601, or a wall-clock time without offset (as the date picker sends it) read in the scene's time zone
    start_at: { schema: { ...DATE_PARAM }, nullable: true, sort: true },
    latest_call_time: { schema: { type: 'string', pattern: HHMM_PATTERN }, required: true },
    pause_reason: { schema: { type: 'string', enum: ['manual', 'overrun'] }, nullable: true, serverSet: true },
    resume_at: F.dateTime({ nullable: true, serverSet: true }),
    call_count: { schema: { type: 'integer' }, virtual: true, select: '(SELECT count(*)::int FROM call_log l WHERE l.task_id = t.id)' },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: [VK.task, VK.log] },
    detail: { permission: [VK.task, VK.taskEdit] },
    create: { permission: VK.taskAdd },
    update: { permission: VK.taskEdit },
  },
  validate: async (v, ctx, mode, before) => {
    if (before && !EDITABLE_STATUSES.includes(before.status as TaskStatus)) {
      throw conflict(`a ${String(before.status)} task cannot be edited; pause it first / 任务${String(before.status)}中，不能编辑`);
    }
    if ('scene_id' in v) await mustExistAll(ctx.db, 'voice_scene', [v.scene_id], 'scene_id');
    if ('number_ids' in v) await mustExistAll(ctx.db, 'call_number', v.number_ids, 'number_ids');
    if (typeof v.start_at === 'string') v.start_at = await toInstant(ctx, v.start_at, v.scene_id ?? before?.scene_id);
    const taskMode = v.mode ?? before?.mode;
    const startAt = 'start_at' in v ? v.start_at : before?.start_at;
    if (taskMode === 'schedule' && !startAt) throw invalid([{ field: 'start_at', message: 'a scheduled task needs a start time / 定时任务需要开始时间' }]);
    if (mode === 'create') {
      // immediate tasks run at once; the others wait (schedule: for start_at, manual: for start)
      v.status = taskMode === 'immediate' ? 'running' : 'pending';
      if (taskMode === 'immediate' && !startAt) v.start_at = new Date().toISOString();
      // created past its latest call time (or with a start time already passed): the rule applies at once
      const tz = await ctx.db.query<{ time_zone: string }>('SELECT time_zone FROM voice_scene WHERE id = $1', [v.scene_id]);
      const state = toState({ ...v, pause_reason: null, resume_at: null });
      const change = tick(state, new Date(), tz.rows[0]?.time_zone ?? 'UTC');
      if (change) Object.assign(v, change);
    }
  },
};

/** An ISO string of `value`; a time without offset is wall-clock time of the scene's time zone. */
async function toInstant(ctx: RouteContext, value: string, sceneId: unknown): Promise<string> {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  if (!m) {
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) throw invalid([{ field: 'start_at', message: 'not a date-time / 时间格式错误' }]);
    return d.toISOString();
  }
  const r = await ctx.db.query<{ time_zone: string }>('SELECT time_zone FROM voice_scene WHERE id = $1', [sceneId]);
  const [, y, mo, d, h = '0', mi = '0', sec = '0'] = m;
  const at = zonedTime(Number(y), Number(mo), Number(d), Number(h), Number(mi), r.rows[0]?.time_zone ?? 'UTC');
  return new Date(at.getTime() + Number(sec) * 1000).toISOString();
}

const sameTime = (a: unknown, b: unknown) => (a ? new Date(a as string).getTime() : null) === (b ? new Date(b as string).getTime() : null);

const toState = (row: Row): TaskState => ({
  status: row.status as TaskStatus,
  mode: row.mode as TaskState['mode'],
  start_at: (row.start_at as string | null) ?? null,
  latest_call_time: String(row.latest_call_time),
  pause_reason: (row.pause_reason as TaskState['pause_reason']) ?? null,
  resume_at: (row.resume_at as string | null) ?? null,
});

async function setStatus(ctx: RouteContext, before: Row, change: { status: string; pause_reason: string | null; resume_at: string | null }, action: string): Promise<Row> {
  await ctx.db.query('UPDATE call_task SET status = $2, pause_reason = $3, resume_at = $4, updated_at = now() WHERE id = $1', [
    before.id,
    change.status,
    change.pause_reason,
    change.resume_at,
  ]);
  return updateRow(callTask, ctx, before.id as number, {}, before, action);
}

/** Applies the automatic change due at `now` to one task (audit action auto_pause / auto_resume / auto_start). */
async function applyTick(ctx: RouteContext, row: Row, now: Date): Promise<Row> {
  const change = tick(toState(row), now, String(row.time_zone ?? 'UTC'));
  if (!change) return row;
  const action = change.status === 'pausing' ? 'auto_pause' : row.status === 'pending' ? 'auto_start' : 'auto_resume';
  if (change.status === row.status && sameTime(change.resume_at, row.resume_at)) return row;
  return setStatus(ctx, row, change, action);
}

const actionRoute = (action: TaskAction): RouteDef => ({
  method: 'POST',
  path: `call-center/task/${action}`,
  access: { permission: VK.task },
  summary: `${action[0].toUpperCase()}${action.slice(1)} a call task (40009 when the task's status does not allow it)`,
  body: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: ID } },
  get reply() {
    return rowSchema(callTask);
  },
  handler: async (ctx) => {
    const { id } = ctx.body as { id: number };
    const before = await mustFind(callTask, ctx as RouteContext, id);
    const change = applyAction({ status: before.status as TaskStatus }, action);
    if (!change) throw conflict(`cannot ${action} a ${String(before.status)} task / 当前状态不能${action}`);
    const after = await setStatus(ctx as RouteContext, before, change, action);
    // starting after the latest call time pauses the task until the next day
    return action === 'start' ? applyTick(ctx as RouteContext, after, new Date()) : after;
  },
});

const tickRoute: RouteDef = {
  method: 'POST',
  path: 'call-center/task/tick',
  access: { permission: VK.task },
  summary: 'Apply the time rules now: pause running tasks past their latest call time, resume them the next day, start due scheduled tasks',
  body: { type: 'object', additionalProperties: false, properties: { at: { type: 'string', format: 'date-time' } } },
  reply: { type: 'object', properties: { changed: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, from: { type: 'string' }, to: { type: 'string' } } } } } },
  handler: async (ctx) => {
    const { at } = ctx.body as { at?: string };
    const now = at ? new Date(at) : new Date();
    const ids = await ctx.db.query<{ id: number }>(
      `SELECT id FROM call_task WHERE status = 'running' OR (status = 'pausing' AND pause_reason = 'overrun') OR (status = 'pending' AND mode = 'schedule') ORDER BY id`,
    );
    const changed: Array<{ id: number; from: string; to: string }> = [];
    for (const { id } of ids.rows) {
      const row = await mustFind(callTask, ctx as RouteContext, id);
      const after = await applyTick(ctx as RouteContext, row, now);
      if (after !== row) changed.push({ id, from: String(row.status), to: String(after.status) });
    }
    return { changed };
  },
};

callTask.actions = [
  ...TASK_ACTIONS.map(actionRoute),
  tickRoute,
  deleteRoute(callTask, VK.task, async (db, id) => {
    const r = await db.query<{ status: string }>('SELECT status FROM call_task WHERE id = $1', [id]);
    if (r.rows[0]?.status === 'running') throw conflict('a running task cannot be deleted; stop it first / 运行中的任务不能删除');
  }),
];
