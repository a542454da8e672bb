/**
 * A display widget may also say how it draws a table cell without being a component: a pure
 * `cell(value, props, ctx)` static returning text (or an element). The list then draws the
 * cell directly, as hand-written antd columns do, instead of mounting one component (and its
 * wrapper element) per cell: for a 100 × 12 page that is a thousand fibers and spans fewer.
 * Widgets without it are rendered as components.
 */
import type { ReactNode } from 'react';
import type { RuntimeEnv } from '../../runtime/env.js';

export interface CellContext {
  env: RuntimeEnv;
  record: Record<string, unknown>;
}

export type CellRenderer = (value: unknown, props: Record<string, unknown>, ctx: CellContext) => ReactNode;

/** The widget's `cell` renderer, if it declares one. */
export const cellOf = (component: unknown): CellRenderer | undefined => {
  const cell = (component as { cell?: unknown } | null)?.cell;
  return typeof cell === 'function' ? (cell as CellRenderer) : undefined;
};
