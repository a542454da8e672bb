/**
 * `POST <name>/batch`: one of a list's single row actions (start, stop, delete, …) applied to
 * several rows, each row on its own. The rows are either `ids` (the selected rows) or `filter`
 * (the list's own query: every row that matches, "select all N matching"), at most
 * BATCH_ACTION_CAP rows either way — a filter matching more is refused (40001 on `filter`),
 * nothing done. Each row runs the single action's own handler (same checks, same audit row)
 * inside a savepoint: a row the action refuses (its status does not allow it, it is gone) is
 * rolled back alone and reported in `results` with its reason; the others are done.
 */
import { Type } from '@sinclair/typebox';
import { Code } from '../../../src/contract/codes.js';
import { AppError, invalid } from '../../http/errors.js';
import { pickLang, requestLang } from '../../http/lang.js';
import { allowed } from '../../http/register.js';
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { applyFilters, Sql } from './list.js';
import { Id, listQuerySchema } from './schemas.js';
import type { Permission, ResourceDef } from './types.js';

import { BATCH_ACTION_CAP } from '../../../src/contract/limits.js';
import { BATCH_REPLY_PROPS, type BatchResult } from '../../../src/contract/replies/batch.js';

/** the reply's counts and results (declared once, src/contract/replies/batch.ts), for batch routes of their own */
export { BATCH_ACTION_CAP, BATCH_REPLY_PROPS };

/**
 * Runs `run` for each id on its own, inside a savepoint: a row `run` refuses (an AppError: its
 * status does not allow it, it is gone) is rolled back alone and reported with the refusal's code
 * and message in the caller's language; a row for which `run` returns a text was left as it was
 * (`skipped`, the text — "english / 中文" — says why). Any other error ends the whole call.
 */
export async function eachRow(ctx: RouteContext, ids: number[], run: (id: number) => Promise<string | void>): Promise<BatchResult[]> {
  const lang = requestLang(ctx.req);
  const results: BatchResult[] = [];
  for (const id of ids) {
    await ctx.db.query('SAVEPOINT batch_row');
    try {
      const skip = await run(id);
      await ctx.db.query('RELEASE SAVEPOINT batch_row');
      results.push(skip ? { id, ok: true, skipped: true, msg: pickLang(skip, lang) } : { id, ok: true });
    } catch (e) {
      await ctx.db.query('ROLLBACK TO SAVEPOINT batch_row');
      if (!(e instanceof AppError)) throw e;
      results.push({ id, ok: false, code: e.code, msg: pickLang(e.message, lang) });
    }
  }
  return results;
}

/** The counts of a batch's results, for its reply. */
export function batchCounts(results: BatchResult[]) {
  const refused = results.filter((r) => !r.ok).length;
  const skipped = results.filter((r) => r.skipped).length;
  return { total: results.length, done: results.length - refused - skipped, skipped, refused };
}

const toAccess = (p: Permission) => ({ permission: p });

/** The ids a list filter matches (oldest first), or 40001 on `filter` beyond the cap. */
async function idsOfFilter(def: ResourceDef, ctx: RouteContext, filter: Record<string, unknown>): Promise<number[]> {
  const sql = new Sql();
  applyFilters(def, filter, sql);
  const r = await ctx.db.query<{ id: number }>(`SELECT t.id FROM ${def.table} t${sql.whereSql} ORDER BY t.id LIMIT ${BATCH_ACTION_CAP + 1}`, sql.params);
  if (r.rows.length > BATCH_ACTION_CAP) {
    throw invalid([
      {
        field: 'filter',
        message: `more than ${BATCH_ACTION_CAP} rows match; narrow the filter / 匹配的记录超过 ${BATCH_ACTION_CAP} 条，请缩小筛选范围`,
      },
    ]);
  }
  return r.rows.map((x) => Number(x.id));
}

/**
 * The batch route of `def` over its single action routes (`{ start: startRoute, … }`, each taking
 * `{ id }`). `permission`: who may call it (each action's own key is checked too).
 */
export function batchActionRoute(def: ResourceDef, permission: Permission, actions: Record<string, RouteDef>): RouteDef {
  const names = Object.keys(actions);
  const { page: _p, page_size: _s, sort_by: _b, sort_order: _o, then_by: _t, then_order: _u, ...filterProps } = listQuerySchema(def).properties;
  return route({
    method: 'POST',
    path: `${def.name}/batch`,
    access: toAccess(permission),
    summary:
      `Apply one action (${names.join(', ')}) to several ${def.name} rows: the selected \`ids\` or every row a list \`filter\` matches ` +
      `(at most ${BATCH_ACTION_CAP}); each row on its own — the rows the action refuses are reported in \`results\` with their reason, the others done`,
    body: Type.Object(
      {
        action: Type.Union(names.map((n) => Type.Literal(n))),
        ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: BATCH_ACTION_CAP, uniqueItems: true })),
        filter: Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: false, properties: filterProps })),
      },
      { additionalProperties: false },
    ),
    reply: Type.Object({ action: Type.String(), ...BATCH_REPLY_PROPS }),
    handler: async (ctx) => {
      const { action, ids, filter } = ctx.body;
      if (!ids === !filter) throw invalid([{ field: 'ids', message: 'send either ids or filter / 请提供 ids 或 filter 之一' }]);
      const single = actions[action];
      if (!allowed(single.access, ctx.user)) throw new AppError(Code.FORBIDDEN);
      const targets = ids ?? (await idsOfFilter(def, ctx, filter ?? {}));
      const results = await eachRow(ctx, targets, async (id) => {
        await single.handler({ ...ctx, body: { id } });
      });
      return { action, ...batchCounts(results), results };
    },
  });
}
