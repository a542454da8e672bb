import type { ColumnsType } from 'antd/es/table';
import { createElement } from 'react';
import { getPath } from '../../runtime/api.js';
import { isShown } from '../../runtime/actions.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { Registry } from '../../runtime/registry.js';
import type { ColumnSpec } from '../../runtime/types.js';
import type { ColumnSettings } from '../../runtime/column-settings.js';
import { cellOf } from './cell.js';

type Row = Record<string, unknown>;

export interface ColumnContext {
  env: RuntimeEnv;
  registry: Registry;
  scope: Record<string, unknown>;
  settings: ColumnSettings;
  order: string[];
  sorter: { field?: string; order?: 'ascend' | 'descend' };
  /** every sort key, the first first (a list sorts by up to two columns) */
  sorters?: ReadonlyArray<{ field: string; order: 'ascend' | 'descend' }>;
}

/** Columns the caller may see (permission, visible), in the saved order, without hidden ones. */
export function visibleColumns(columns: readonly ColumnSpec[], env: RuntimeEnv, scope: Record<string, unknown>): ColumnSpec[] {
  return columns.filter((c) => isShown(c, env, scope));
}

const sortOrderOf = (ctx: ColumnContext, key: string) =>
  (ctx.sorters ? ctx.sorters.find((s) => s.field === key)?.order : ctx.sorter.field === key ? ctx.sorter.order : undefined) ?? null;

export function buildColumns(columns: readonly ColumnSpec[], ctx: ColumnContext): ColumnsType<Row> {
  const byKey = new Map(columns.map((c, i) => [c.key, { c, i }]));
  return ctx.order
    .filter((k) => byKey.has(k) && !ctx.settings.hidden.includes(k))
    .map((k) => {
      const { c, i } = byKey.get(k)!;
      const widget = c.widget ?? (c.enum ? 'EnumTag' : 'Text');
      const Comp = ctx.registry.get(widget, `/columns/${i}/widget`);
      const props = c.widgetProps ?? {};
      const path = c.dataIndex ?? c.key;
      const cell = cellOf(Comp);
      const env = ctx.env;
      return {
        key: c.key,
        title: ctx.env.t(c.title),
        dataIndex: (c.dataIndex ?? c.key).split('.'),
        width: ctx.settings.widths[c.key] ?? c.width,
        fixed: c.fixed,
        align: c.align,
        ellipsis: c.ellipsis,
        // antd's multiple mode: a second sorted column joins the first (the server sorts; the
        // priority only switches the mode on)
        sorter: c.sorter ? (ctx.sorters ? { multiple: 1 } : true) : undefined,
        sortOrder: c.sorter ? sortOrderOf(ctx, c.key) : undefined,
        render: cell
          ? (_: unknown, row: Row) => cell(getPath(row, path), props, { env, record: row })
          : (_: unknown, row: Row) => createElement(Comp, { ...props, value: getPath(row, path), record: row, enumId: c.enum }),
      };
    });
}
