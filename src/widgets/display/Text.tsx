import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

/** Plain text; '-' when empty; objects as JSON. */
export function Text({ value }: DisplayProps) {
  if (isBlank(value)) return <span>-</span>;
  return <span>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</span>;
}
