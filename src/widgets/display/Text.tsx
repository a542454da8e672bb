import type { ReactNode } from 'react';
import type { DisplayProps } from '../../runtime/registry.js';
import type { CellRenderer } from '../list/cell.js';
import { isBlank } from './format.js';

const label = (v: unknown, key: unknown): string =>
  v && typeof v === 'object' ? String((v as Record<string, unknown>)[typeof key === 'string' ? key : 'name'] ?? JSON.stringify(v)) : String(v);

/** The text Text shows: '-' when empty; arrays joined (objects by `labelKey`, default name). */
export function textOf(value: unknown, labelKey?: unknown): string {
  if (isBlank(value) || (Array.isArray(value) && !value.length)) return '-';
  if (Array.isArray(value)) return value.map((v) => label(v, labelKey)).join(', ');
  return typeof value === 'object' ? label(value, labelKey) : String(value);
}

/** Plain text; '-' when empty; arrays joined (objects by `labelKey`, default name); `children` (x-content) when no value. */
export function Text({ value, labelKey, children }: DisplayProps) {
  if (isBlank(value) && children) return <span>{children as ReactNode}</span>;
  return <span>{textOf(value, labelKey)}</span>;
}

/** In a table cell: the text itself. */
Text.cell = ((value, props) => textOf(value, props.labelKey)) satisfies CellRenderer;
