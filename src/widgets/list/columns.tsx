import { theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { createElement } from 'react';
import { isShown } from '../../runtime/actions.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { Registry } from '../../runtime/registry.js';
import type { ColumnSpec, EnumMap } from '../../runtime/types.js';
import type { ColumnSettings } from '../../runtime/column-settings.js';
import { cellOf, columnOf, type ColumnCell } from './cell.js';

type Row = Record<string, unknown>;

export interface ColumnContext {
  env: RuntimeEnv;
  registry: Registry;
  /** the page's enums (enum columns look their labels up here, once per column) */
  enums: EnumMap;
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

/** `a.b.c` → a reader of that path, split once per column instead of once per cell. */
const pathReader = (path: string): ((row: Row) => unknown) => {
  const segs = path.split('.');
  if (segs.length === 1) return (row) => row[path];
  return (row) => {
    let cur: unknown = row;
    for (const seg of segs) {
      if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
      cur = (cur as Row)[seg];
    }
    return cur;
  };
};

/**
 * The cell function of one column, compiled once: the widget's `column` compiler (enum
 * look-ups, labels), else its `cell` renderer, else the widget as a component per cell. A lazy
 * widget whose code is here is reached directly (its statics, no wrapper component per cell).
 */
function compileCell(c: ColumnSpec, i: number, ctx: ColumnContext): ColumnCell {
  const widget = c.widget ?? (c.enum ? 'EnumTag' : 'Text');
  const Comp = ctx.registry.loaded(widget) ?? ctx.registry.get(widget, `/columns/${i}/widget`);
  const props = c.widgetProps ?? {};
  const column = columnOf(Comp);
  if (column) return column(props, { env: ctx.env, enums: ctx.enums, enumId: c.enum });
  const cell = cellOf(Comp);
  const env = ctx.env;
  if (cell) return (value, record) => cell(value, props, { env, record });
  return (value, record) => createElement(Comp, { ...props, value, record, enumId: c.enum });
}

/** A canvas 2D context to measure column titles with (none in jsdom: an estimate is used there). */
let measurer: CanvasRenderingContext2D | null | undefined;
const measured = new Map<string, number>();
/** Width in px of `word` in a column title's font (antd: 600 weight, 14 px, its font family). */
function wordWidth(word: string): number {
  let w = measured.get(word);
  if (w !== undefined) return w;
  if (measurer === undefined) {
    // jsdom (unit tests) has no canvas: it would log "not implemented" and give nothing
    const jsdom = typeof navigator !== 'undefined' && navigator.userAgent.includes('jsdom');
    measurer = typeof document === 'undefined' || jsdom ? null : (document.createElement('canvas').getContext('2d') ?? null);
    // antd's own font (the page's body keeps the browser default, which is not what titles use)
    if (measurer) measurer.font = `600 14px ${theme.getDesignToken().fontFamily}`;
  }
  w = measurer ? Math.ceil(measurer.measureText(word).width) : word.length * 9;
  measured.set(word, w);
  return w;
}

/**
 * The narrowest a column may be so that no word of its title breaks in the middle ("accurac/y"):
 * its longest Latin word, the cell's padding (16 px a side) and the sort arrows when it sorts.
 * Chinese titles break between characters, which reads fine, so they set no floor.
 */
export function titleFloor(title: string, sorts: boolean): number {
  const words = title.match(/[A-Za-z][A-Za-z0-9'’-]*/g);
  if (!words) return 0;
  return Math.max(...words.map(wordWidth)) + 32 + (sorts ? 26 : 0) + 2;
}

export function buildColumns(columns: readonly ColumnSpec[], ctx: ColumnContext): ColumnsType<Row> {
  const byKey = new Map(columns.map((c, i) => [c.key, { c, i }]));
  return ctx.order
    .filter((k) => byKey.has(k) && !ctx.settings.hidden.includes(k))
    .map((k) => {
      const { c, i } = byKey.get(k)!;
      const read = pathReader(c.dataIndex ?? c.key);
      const cell = compileCell(c, i, ctx);
      const title = ctx.env.t(c.title);
      const width = ctx.settings.widths[c.key] ?? c.width;
      return {
        key: c.key,
        title,
        dataIndex: (c.dataIndex ?? c.key).split('.'),
        // a column without a width takes what is left; its floor counts in the table's width (ListView)
        ...(width === undefined ? { minWidth: titleFloor(title, !!c.sorter) || undefined } : { width: Math.max(width, titleFloor(title, !!c.sorter)) }),
        fixed: c.fixed,
        align: c.align,
        ellipsis: c.ellipsis,
        // antd's multiple mode: a second sorted column joins the first (the server sorts; the
        // priority only switches the mode on)
        sorter: c.sorter ? (ctx.sorters ? { multiple: 1 } : true) : undefined,
        sortOrder: c.sorter ? sortOrderOf(ctx, c.key) : undefined,
        render: (_: unknown, row: Row) => cell(read(row), row),
      };
    });
}
