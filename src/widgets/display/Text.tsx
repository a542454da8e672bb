import type { ReactNode } from 'react';
import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

const label = (v: unknown, key: unknown): string =>
  v && typeof v === 'object' ? String((v as Record<string, unknown>)[typeof key === 'string' ? key : 'name'] ?? JSON.stringify(v)) : String(v);

/** Plain text; '-' when empty; arrays joined (objects by `labelKey`, default name); `children` (x-content) when no value. */
export function Text({ value, labelKey, children }: DisplayProps) {
  if (isBlank(value) && children) return <span>{children as ReactNode}</span>;
  if (isBlank(value) || (Array.isArray(value) && !value.length)) return <span>-</span>;
  if (Array.isArray(value)) return <span>{value.map((v) => label(v, labelKey)).join(', ')}</span>;
  return <span>{typeof value === 'object' ? label(value, labelKey) : String(value)}</span>;
}
