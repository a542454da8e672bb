/**
 * A display widget may also say how it draws a table cell without being a component, so a
 * list column is compiled once and its cells cost what a hand-written antd column's do:
 *
 * - `column(props, ctx)`: called once per column (per schema version, locale and enum set);
 *   returns the cell function `(value, record) => node`, which may close over work done once
 *   for the column (an enum's value → label map, translated labels);
 * - `cell(value, props, ctx)`: a pure per-cell renderer returning text (or an element).
 *
 * The list then draws the cell directly instead of mounting one component (and, for a lazy
 * widget, its wrapper) per cell: for a 100 × 12 page that is a thousand fibers fewer. Widgets
 * with neither are rendered as components.
 */
import type { ReactNode } from 'react';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { EnumMap } from '../../runtime/types.js';

export interface CellContext {
  env: RuntimeEnv;
  record: Record<string, unknown>;
}

export type CellRenderer = (value: unknown, props: Record<string, unknown>, ctx: CellContext) => ReactNode;

/** What a column compiler gets: the runtime, the page's enums and the column's enum id. */
export interface ColumnCellContext {
  env: RuntimeEnv;
  enums: EnumMap;
  enumId?: string;
}

export type ColumnCell = (value: unknown, record: Record<string, unknown>) => ReactNode;
export type ColumnCompiler = (props: Record<string, unknown>, ctx: ColumnCellContext) => ColumnCell;

/** The widget's `cell` renderer, if it declares one. */
export const cellOf = (component: unknown): CellRenderer | undefined => {
  const cell = (component as { cell?: unknown } | null)?.cell;
  return typeof cell === 'function' ? (cell as CellRenderer) : undefined;
};

/** The widget's per-column compiler, if it declares one. */
export const columnOf = (component: unknown): ColumnCompiler | undefined => {
  const column = (component as { column?: unknown } | null)?.column;
  return typeof column === 'function' ? (column as ColumnCompiler) : undefined;
};
