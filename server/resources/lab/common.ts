/** Helpers shared by the lab resources: status actions, existence checks (deletes: engine/routes.ts `deleteRoute`). */
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { conflict, invalid } from '../../http/errors.js';
import { mustFind, updateRow } from '../engine/routes.js';
import { idBody, rowSchema } from '../engine/schemas.js';
import type { Permission, ResourceDef, Row } from '../engine/types.js';
import { allowedActions, nextStatus, type TaskAction, type TaskStatus } from './task-status.js';

/** 40001 on `field` unless a row with that id exists in `table` (our tables only). */
export async function mustExistIn(ctx: RouteContext, table: string, id: unknown, field: string): Promise<Row | null> {
  if (id === undefined || id === null) return null;
  const r = await ctx.db.query<Row>(`SELECT * FROM ${table} WHERE id = $1`, [id]);
  if (!r.rows[0]) throw invalid([{ field, message: `${field} ${String(id)} does not exist / 不存在` }]);
  return r.rows[0];
}

/** Applies a status action to a locked task row, or 40009 naming the allowed actions. */
export async function transition(
  def: ResourceDef,
  ctx: RouteContext<unknown, unknown>,
  id: number,
  action: TaskAction,
  extraSets: (to: TaskStatus, before: Row) => string[] = () => [],
): Promise<Row> {
  const before = await mustFind(def, ctx, id);
  const from = before.status as TaskStatus;
  const to = nextStatus(from, action);
  if (!to) {
    const ok = allowedActions(from).filter((a) => a !== 'finish');
    throw conflict(`cannot ${action} a ${from} task (allowed: ${ok.join(', ') || 'none'}) / 当前状态不允许该操作`);
  }
  const sets = [`status = $2`, 'updated_at = now()', ...extraSets(to, before)];
  await ctx.db.query(`UPDATE ${def.table} SET ${sets.join(', ')} WHERE id = $1`, [id, to]);
  return updateRow(def, ctx, id, {}, before, action);
}

/** `POST <name>/start|pause|stop` routes; `after` runs in the same transaction (e.g. enqueue the run). */
export function statusRoutes(
  def: ResourceDef,
  permission: Permission,
  extraSets: (to: TaskStatus, before: Row) => string[] = () => [],
  after?: (ctx: RouteContext, id: number, to: TaskStatus) => Promise<void>,
): RouteDef[] {
  return (['start', 'pause', 'stop'] as const).map((action) =>
    route({
      method: 'POST',
      path: `${def.name}/${action}`,
      access: { permission },
      summary: `${action[0].toUpperCase()}${action.slice(1)} a task (40009 when the status does not allow it; see docs/modules/lab.md)`,
      body: idBody,
      get reply() {
        return rowSchema(def);
      },
      handler: async (ctx) => {
        const { id } = ctx.body;
        const row = await transition(def, ctx, id, action, extraSets);
        await after?.(ctx, id, row.status as TaskStatus);
        return row;
      },
    }),
  );
}

/** Sets started_at on the first start and finished_at when a task ends. */
export const timestampSets = (to: TaskStatus, before: Row): string[] => {
  const sets: string[] = [];
  if (to === 'running' && !before.started_at) sets.push('started_at = now()');
  if (to === 'finished' || to === 'stopped') sets.push('finished_at = now()');
  return sets;
};
