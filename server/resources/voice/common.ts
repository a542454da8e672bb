import type { Queryable } from '../../db/db.js';
import { invalid } from '../../http/errors.js';
import { route, type RouteDef } from '../../http/route.js';
import { mustFind } from '../engine/routes.js';
import { idBody } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';

/** `POST <name>/delete` with a check before the row goes (throw `conflict` to refuse). */
export function deleteRoute(def: ResourceDef, permission: string, check: (db: Queryable, id: number) => Promise<void>): RouteDef {
  return route({
    method: 'POST',
    path: `${def.name}/delete`,
    access: { permission },
    summary: `Delete ${def.name}`,
    body: idBody,
    reply: { type: 'object', properties: { id: { type: 'integer' } } },
    handler: async (ctx) => {
      const { id } = ctx.body;
      const before = await mustFind(def, ctx, id);
      await check(ctx.db, id);
      await ctx.db.query(`DELETE FROM ${def.table} WHERE id = $1`, [id]);
      await ctx.audit({ action: 'delete', resource: def.auditName ?? def.name, targetId: id, before });
      return { id };
    },
  });
}

/** 40001 on `field` unless every id exists in `table`. */
export async function mustExistAll(db: Queryable, table: string, ids: unknown, field: string): Promise<void> {
  if (!Array.isArray(ids) || !ids.length) return;
  const r = await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE id = ANY($1::int[])`, [ids]);
  const found = new Set(r.rows.map((x) => Number(x.id)));
  const missing = (ids as number[]).filter((x) => !found.has(x));
  if (missing.length) throw invalid([{ field, message: `${table.replace(/_/g, ' ')} ${missing.join(', ')} does not exist / 不存在` }]);
}
