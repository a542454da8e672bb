import { Type } from '@sinclair/typebox';
import { pageReply } from '../../http/list.js';
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { AppError, notFound } from '../../http/errors.js';
import { Code } from '../../../src/contract/codes.js';
import {
  createBodySchema,
  Id,
  idBody,
  idQuery,
  listQuerySchema,
  rowSchema,
  updateBodySchema,
} from './schemas.js';
import { findRow, listRows } from './list.js';
import { toAccess, type Permission, type ResourceDef, type Row } from './types.js';
import type { Queryable } from '../../db/db.js';

/** The reply of a delete: the id that went. */
const IdReply = Type.Object({ id: Type.Integer() });
/** The reply of a batch delete: the ids that went. */
const IdsReply = Type.Object({ ids: Type.Array(Type.Integer()) });

const DEFAULT_PATH = { list: 'list', detail: 'detail', create: 'create', update: 'update', delete: 'delete' } as const;
const BATCH_MAX = 100;

/** "orders (3), plan orders (1)" / "3 个订单、1 个套餐订单" of the rows that keep `ids` from being deleted; null when none. */
async function dependentsOf(def: ResourceDef, db: Queryable, ids: number[]): Promise<{ en: string; zh: string } | null> {
  const en: string[] = [];
  const zh: string[] = [];
  for (const d of def.dependents ?? []) {
    const n = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${d.table} WHERE ${d.column} = ANY($1::int[])`, [ids])).rows[0].n;
    if (n > 0) {
      en.push(`${d.label.en} (${n})`);
      zh.push(`${n} 个${d.label.zh}`);
    }
  }
  return en.length ? { en: en.join(', '), zh: zh.join('、') } : null;
}

/** Refuses (40009) deleting a row that business rows still depend on, then runs the resource's own rule. */
async function checkDelete(
  def: ResourceDef,
  ctx: RouteContext,
  row: Row,
  check: (row: Row, ctx: RouteContext) => Promise<void> = async (r, c) => def.beforeDelete?.(r, c),
): Promise<void> {
  const deps = await dependentsOf(def, ctx.db, [Number(row.id)]);
  if (deps) {
    throw new AppError(Code.CONFLICT, `cannot delete: still has ${deps.en}, remove those first / 无法删除：仍有${deps.zh}，请先处理这些数据`, {
      errors: [{ field: 'id', message: `still has ${deps.en} / 仍有${deps.zh}` }],
    });
  }
  await check(row, ctx);
}

/**
 * `POST <name>/delete` with a check — the one delete-with-check of the resources (issue 22): the
 * engine's delete operation and the bespoke deletes (voice, lab) are this route. The row is found
 * (40004), rows that still depend on it (`dependents`) and then `check` (default: the resource's
 * `beforeDelete`) may refuse with 40009, then it goes and the delete is audited.
 */
export function deleteRoute(
  def: ResourceDef,
  permission: Permission,
  check?: (row: Row, ctx: RouteContext) => Promise<void>,
  opts: { path?: string; tags?: string[] } = {},
): RouteDef {
  return route({
    method: 'POST',
    path: opts.path ?? `${def.name}/delete`,
    access: toAccess(permission),
    ...(opts.tags ? { tags: opts.tags } : {}),
    summary: `Delete ${def.name}`,
    body: idBody,
    reply: IdReply,
    handler: async (ctx) => {
      const { id } = ctx.body;
      const before = await mustFind(def, ctx, id);
      await checkDelete(def, ctx, before, check);
      await ctx.db.query(`DELETE FROM ${def.table} WHERE id = $1`, [id]);
      await ctx.audit({ action: 'delete', resource: def.auditName ?? def.name, targetId: id, before });
      return { id };
    },
  });
}

/** Columns and values of a body for INSERT / UPDATE (declared writable fields only). */
function writableEntries(def: ResourceDef, body: Record<string, unknown>, mode: 'create' | 'update') {
  const out: Array<[string, unknown]> = [];
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.readOnly || f.virtual || !(name in body)) continue;
    if (mode === 'update' && f.createOnly) continue;
    out.push([f.column ?? name, body[name]]);
  }
  return out;
}

export async function insertRow(def: ResourceDef, ctx: RouteContext<unknown, unknown>, values: Record<string, unknown>): Promise<Row> {
  const entries = writableEntries(def, values, 'create');
  const cols = entries.map(([c]) => c).join(', ');
  const ph = entries.map((_, i) => `$${i + 1}`).join(', ');
  const ins = await ctx.db.query<{ id: number }>(
    entries.length
      ? `INSERT INTO ${def.table} (${cols}) VALUES (${ph}) RETURNING id`
      : `INSERT INTO ${def.table} DEFAULT VALUES RETURNING id`,
    entries.map(([, v]) => v),
  );
  const row = (await findRow(def, ctx.db, ins.rows[0].id))!;
  await ctx.audit({ action: 'create', resource: def.auditName ?? def.name, targetId: row.id as number, after: row });
  return row;
}

export async function updateRow(
  def: ResourceDef,
  ctx: RouteContext<unknown, unknown>,
  id: number,
  values: Record<string, unknown>,
  before: Row,
  action = 'update',
): Promise<Row> {
  const entries = writableEntries(def, values, 'update');
  if (entries.length) {
    const sets = entries.map(([c], i) => `${c} = $${i + 2}`);
    if ('updated_at' in def.fields) sets.push('updated_at = now()');
    await ctx.db.query(`UPDATE ${def.table} SET ${sets.join(', ')} WHERE id = $1`, [id, ...entries.map(([, v]) => v)]);
  }
  const after = (await findRow(def, ctx.db, id))!;
  await ctx.audit({ action, resource: def.auditName ?? def.name, targetId: id, before, after });
  return after;
}

/** Loads a row for a change (locked), or 40004. */
export async function mustFind(def: ResourceDef, ctx: RouteContext<unknown, unknown>, id: number): Promise<Row> {
  const row = await findRow(def, ctx.db, id, true);
  if (!row) throw notFound(def.name);
  return row;
}

/**
 * The RouteDefs of a resource: its allowed CRUD operations, then its bespoke actions. Their
 * schemas are built from the declaration (schemas.ts), which also gives their static types:
 * records of the declared fields, with the `id` the detail, update and delete calls require.
 */
export function resourceRoutes(def: ResourceDef): RouteDef[] {
  const routes: RouteDef[] = [];
  const ops = def.operations;
  const path = (op: keyof typeof DEFAULT_PATH) => `${def.name}/${ops[op]?.path ?? DEFAULT_PATH[op]}`;
  const tags = [def.name.split('/')[0]];
  if (ops.list) {
    routes.push(
      route({
        method: 'GET',
        path: path('list'),
        access: toAccess(ops.list.permission),
        tags,
        summary: `List ${def.name}`,
        query: listQuerySchema(def),
        reply: pageReply(rowSchema(def, true)),
        handler: (ctx) => listRows(def, ctx.db, ctx.query),
      }),
    );
  }
  if (ops.detail) {
    routes.push(
      route({
        method: 'GET',
        path: path('detail'),
        access: toAccess(ops.detail.permission),
        tags,
        summary: `One ${def.name}`,
        query: idQuery,
        reply: rowSchema(def),
        handler: async (ctx) => {
          const row = await findRow(def, ctx.db, ctx.query.id);
          if (!row) throw notFound(def.name);
          return row;
        },
      }),
    );
  }
  if (ops.create) {
    routes.push(
      route({
        method: 'POST',
        path: path('create'),
        access: toAccess(ops.create.permission),
        tags,
        summary: `Create ${def.name}`,
        body: createBodySchema(def),
        reply: rowSchema(def),
        handler: async (ctx) => {
          await def.validate?.(ctx.body, ctx, 'create');
          const row = await insertRow(def, ctx, ctx.body);
          await def.afterCreate?.(row, ctx);
          return row;
        },
      }),
    );
  }
  if (ops.update) {
    routes.push(
      route({
        method: 'POST',
        path: path('update'),
        access: toAccess(ops.update.permission),
        tags,
        summary: `Update ${def.name}`,
        body: updateBodySchema(def),
        reply: rowSchema(def),
        handler: async (ctx) => {
          const { id, ...values } = ctx.body;
          const before = await mustFind(def, ctx, id);
          await def.validate?.(values, ctx, 'update', before);
          const after = await updateRow(def, ctx, id, values, before);
          await def.afterUpdate?.(after, before, ctx);
          return after;
        },
      }),
    );
  }
  if (ops.delete) {
    routes.push(deleteRoute(def, ops.delete.permission, undefined, { path: path('delete'), tags }));
    if (def.batchDelete) {
      routes.push(
        route({
          method: 'POST',
          path: path('delete').replace(/delete$/, 'batch-delete'),
          access: toAccess(ops.delete.permission),
          tags,
          summary: `Delete several ${def.name} rows at once (up to ${BATCH_MAX}): all or nothing; 40009 naming each row that cannot go`,
          body: Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: BATCH_MAX, uniqueItems: true }) }, { additionalProperties: false }),
          reply: IdsReply,
          handler: async (ctx) => {
            const { ids } = ctx.body;
            const rows: Row[] = [];
            const refused: Array<{ field: string; message: string }> = [];
            for (const [i, id] of ids.entries()) {
              const row = await findRow(def, ctx.db, id, true);
              if (!row) {
                refused.push({ field: `ids[${i}]`, message: `${id}: not found / 不存在` });
                continue;
              }
              try {
                await checkDelete(def, ctx, row);
                rows.push(row);
              } catch (e) {
                if (!(e instanceof AppError)) throw e;
                const why = `${id}: ${e.message}`; // e.message is bilingual
                refused.push({ field: `ids[${i}]`, message: why });
              }
            }
            if (refused.length) {
              // the reasons ride in the message too ("; "-separated, each in both languages), so a
              // client that shows only the message shows why
              const head = `${refused.length} of ${ids.length} cannot be deleted, nothing was deleted / ${ids.length} 条中有 ${refused.length} 条无法删除，未删除任何数据`;
              throw new AppError(Code.CONFLICT, [head, ...refused.map((r) => r.message)].join('; '), { errors: refused });
            }
            await ctx.db.query(`DELETE FROM ${def.table} WHERE id = ANY($1::int[])`, [ids]);
            for (const row of rows) await ctx.audit({ action: 'delete', resource: def.auditName ?? def.name, targetId: Number(row.id), before: row });
            return { ids };
          },
        }),
      );
    }
  }
  for (const a of def.actions ?? []) routes.push({ tags, ...a });
  return routes;
}
