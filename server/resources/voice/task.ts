import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { conflict, invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { mustFind, updateRow } from '../engine/routes.js';
import { DATE_PARAM, ID, idBody, rowSchema } from '../engine/schemas.js';
import type { ResourceDef, Row } from '../engine/types.js';
import { deleteRoute } from '../engine/routes.js';
import { batchActionRoute } from '../engine/batch-actions.js';
import { mustExistAll } from './common.js';
import { HHMM_PATTERN, VK } from './keys.js';
import { parseCallees, syncTargets } from './calls/callees.js';
import { EDITABLE_STATUSES, TASK_ACTIONS, TASK_MODES, TASK_STATUSES, applyAction, minutesOf, tick, zonedTime, type TaskAction, type TaskState, type TaskStatus } from './task-status.js';

/**
 * Outbound call tasks: a scene, the numbers that call out, the numbers to call (`callees`, one
 * per line), a mode (manual / immediate / schedule), a status (pending / running / finished /
 * stopped / pausing), a start time, the daily call window (`window_start` – `latest_call_time`,
 * `HH:MM` in the scene's time zone) and a concurrency cap. People change the status through the
 * actions below (task-status.ts holds the rules); the campaign (server/resources/voice/calls/campaign.ts)
 * starts, pauses, resumes and finishes tasks by itself and places their calls.
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
    window_start: { schema: { type: 'string', pattern: HHMM_PATTERN } },
    concurrency: F.int(1, 50),
    // the numbers to call: one per line, `phone` or `phone, customer name`
    callees: { schema: { type: 'string', maxLength: 200000 }, detailOnly: true },
    callee_total: { schema: { type: 'integer' }, virtual: true, select: '(SELECT count(*)::int FROM call_target g WHERE g.task_id = t.id)' },
    callee_done: { schema: { type: 'integer' }, virtual: true, select: "(SELECT count(*)::int FROM call_target g WHERE g.task_id = t.id AND g.state = 'done')" },
    callee_connected: {
      schema: { type: 'integer' },
      virtual: true,
      select: "(SELECT count(*)::int FROM call_target g WHERE g.task_id = t.id AND g.outcome = 'connected')",
    },
    // the dialer of the task's latest attempt (dry-run | twilio), null before the first call
    dialer: { schema: { type: 'string' }, nullable: true, virtual: true, select: "(SELECT nullif(l.dialer, '') FROM call_log l WHERE l.task_id = t.id ORDER BY l.id DESC LIMIT 1)" },
    finished_at: F.dateTime({ nullable: true, serverSet: true }),
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
    const windowStart = String(v.window_start ?? before?.window_start ?? '09:00');
    const latest = String(v.latest_call_time ?? before?.latest_call_time ?? '20:00');
    if (('window_start' in v || 'latest_call_time' in v) && minutesOf(windowStart) >= minutesOf(latest)) {
      throw invalid([{ field: 'window_start', message: `the call window must open before the latest call time ${latest} / 呼叫时段开始须早于最晚呼叫时间` }]);
    }
    if (typeof v.callees === 'string') {
      const { problems } = parseCallees(v.callees);
      if (problems.length) throw invalid(problems.slice(0, 20).map((message) => ({ field: 'callees', message })));
    }
    if (mode === 'create') {
      const now = ctx.req.server.jobs.clock.now();
      // immediate tasks run at once; the others wait (schedule: for start_at, manual: for start)
      v.status = taskMode === 'immediate' ? 'running' : 'pending';
      if (taskMode === 'immediate' && !startAt) v.start_at = now.toISOString();
      // created past its latest call time (or with a start time already passed): the rule applies at once
      const tz = await ctx.db.query<{ time_zone: string }>('SELECT time_zone FROM voice_scene WHERE id = $1', [v.scene_id]);
      const state = toState({ ...v, window_start: windowStart, pause_reason: null, resume_at: null });
      const change = tick(state, now, tz.rows[0]?.time_zone ?? 'UTC');
      if (change) Object.assign(v, change);
    }
  },
  // the numbers to call become call_target rows (one per number, with its progress)
  afterCreate: async (row, ctx) => {
    const { callees } = parseCallees(String(row.callees ?? ''));
    await syncTargets(ctx.db, Number(row.id), callees);
    row.callee_total = callees.length;
  },
  afterUpdate: async (row, before, ctx) => {
    if (row.callees === before.callees) return;
    await syncTargets(ctx.db, Number(row.id), parseCallees(String(row.callees ?? '')).callees);
    const r = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM call_target WHERE task_id = $1', [row.id]);
    row.callee_total = r.rows[0].n;
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
  window_start: row.window_start ? String(row.window_start) : null,
  pause_reason: (row.pause_reason as TaskState['pause_reason']) ?? null,
  resume_at: (row.resume_at as string | null) ?? null,
});

async function setStatus(ctx: RouteContext<unknown, unknown>, before: Row, change: { status: string; pause_reason: string | null; resume_at: string | null }, action: string): Promise<Row> {
  await ctx.db.query('UPDATE call_task SET status = $2, pause_reason = $3, resume_at = $4, updated_at = now() WHERE id = $1', [
    before.id,
    change.status,
    change.pause_reason,
    change.resume_at,
  ]);
  return updateRow(callTask, ctx, before.id as number, {}, before, action);
}

/** Applies the change due at `now` right after a start (audit action auto_pause); the campaign ticker does the rest. */
async function applyTick(ctx: RouteContext<unknown, unknown>, row: Row, now: Date): Promise<Row> {
  const change = tick(toState(row), now, String(row.time_zone ?? 'UTC'));
  if (!change) return row;
  const action = change.status === 'pausing' ? 'auto_pause' : row.status === 'pending' ? 'auto_start' : 'auto_resume';
  if (change.status === row.status && sameTime(change.resume_at, row.resume_at)) return row;
  return setStatus(ctx, row, change, action);
}

const actionRoute = (action: TaskAction): RouteDef =>
  route({
    method: 'POST',
    path: `call-center/task/${action}`,
    access: { permission: VK.task },
    summary: `${action[0].toUpperCase()}${action.slice(1)} a call task (40009 when the task's status does not allow it)`,
    body: idBody,
    get reply() {
      return rowSchema(callTask);
    },
    handler: async (ctx) => {
      const { id } = ctx.body;
      const before = await mustFind(callTask, ctx, id);
      const change = applyAction({ status: before.status as TaskStatus }, action);
      if (!change) throw conflict(`cannot ${action} a ${String(before.status)} task / 当前状态不能${action}`);
      const after = await setStatus(ctx, before, change, action);
      // starting after the latest call time pauses the task until the next day
      return action === 'start' ? applyTick(ctx, after, ctx.req.server.jobs.clock.now()) : after;
    },
  });

const callActions = Object.fromEntries(TASK_ACTIONS.map((a) => [a, actionRoute(a)])) as Record<TaskAction, RouteDef>;
const callDelete = deleteRoute(callTask, VK.task, async ({ id }, { db }) => {
  const r = await db.query<{ status: string }>('SELECT status FROM call_task WHERE id = $1', [id]);
  if (r.rows[0]?.status === 'running') throw conflict('a running task cannot be deleted; stop it first / 运行中的任务不能删除');
});
callTask.actions = [...Object.values(callActions), callDelete, batchActionRoute(callTask, VK.task, { ...callActions, delete: callDelete })];
