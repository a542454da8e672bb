/**
 * `POST <task>/compare-versions`: two prompt versions compared on one dataset as one action
 * (issue 21, docs/modules/lab.md "Comparing runs"). It creates two tasks on the dataset, each
 * pinned to one of the versions (same model server, shop and pass mark), starts both runs in
 * this transaction and answers their ids and the page of the first task, whose run comparison
 * shows them side by side (its baseline by default the newest other run of the dataset: the
 * second task, once it has answered). Each task is audited as created.
 * Needs the area's add key: it creates tasks.
 */
import { Type } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { invalid } from '../../http/errors.js';
import { Id } from '../engine/schemas.js';
import { mustExistIn } from './common.js';
import type { TaskKeys } from './keys.js';
import { RUN_AREAS, startRun } from './run-start.js';

export interface VersionCompareArea {
  name: string;
  table: 'text_task' | 'text_rating_task';
  datasetTable: string;
  keys: TaskKeys;
  /** the detail page of the area's tasks (it embeds the run comparison), `:a` the first task */
  comparePath: string;
}

const Nullable = <T extends ReturnType<typeof Type.Integer>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

export function versionCompareRoute(a: VersionCompareArea): RouteDef {
  return route({
    method: 'POST',
    path: `${a.name}/compare-versions`,
    access: { permission: a.keys.add },
    summary: 'Compares two prompt versions on a dataset: creates a task pinned to each, starts both runs, answers { a, b, path } (the page of the first task, its run comparison)',
    body: Type.Object(
      {
        prompt_version_id: Id,
        other_version_id: Id,
        dataset_id: Id,
        model_server_id: Nullable(Type.Integer({ minimum: 1 })),
        shop_id: Nullable(Type.Integer({ minimum: 1 })),
      },
      { additionalProperties: false },
    ),
    reply: Type.Object({ a: Type.Integer(), b: Type.Integer(), path: Type.String() }),
    handler: async (ctx) => {
      const b = ctx.body;
      if (b.prompt_version_id === b.other_version_id) {
        throw invalid([{ field: 'other_version_id', message: 'choose a different version to compare with / 请选择另一个版本进行对比' }]);
      }
      const ds = await mustExistIn(ctx, a.datasetTable, b.dataset_id, 'dataset_id');
      const first = await mustExistIn(ctx, 'prompt_version', b.prompt_version_id, 'prompt_version_id');
      const second = await mustExistIn(ctx, 'prompt_version', b.other_version_id, 'other_version_id');
      await mustExistIn(ctx, 'config_model_server', b.model_server_id, 'model_server_id');
      await mustExistIn(ctx, 'shop', b.shop_id, 'shop_id');
      const ids: number[] = [];
      for (const v of [first, second]) {
        const name = `${String(v!.name).slice(0, 60)} v${String(v!.version)} · ${String(ds!.name).slice(0, 30)}`;
        const r = await ctx.db.query<Record<string, unknown>>(
          `INSERT INTO ${a.table} (name, dataset_id, prompt, prompt_version_id, model_server_id, shop_id, mode, status, total, started_at, remark)
           VALUES ($1, $2, '', $3, $4, $5, 'immediate', 'running', $6, now(), $7) RETURNING *`,
          [name, b.dataset_id, v!.id, b.model_server_id ?? null, b.shop_id ?? null, ds!.sample_count ?? 0, 'prompt version comparison / 提示词版本对比'],
        );
        const row = r.rows[0];
        await ctx.audit({ action: 'create', resource: a.table, targetId: Number(row.id), after: row });
        await startRun(ctx.db, ctx.req.server.jobs.enqueue, RUN_AREAS[a.table], Number(row.id), ctx.user?.id ?? null);
        ids.push(Number(row.id));
      }
      return { a: ids[0], b: ids[1], path: a.comparePath.replace(':a', String(ids[0])) };
    },
  });
}
