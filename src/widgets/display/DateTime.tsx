import type { DisplayProps } from '../../runtime/registry.js';
import { formatDateTime } from './format.js';

export function DateTime({ value, format }: DisplayProps) {
  return <span>{formatDateTime(value, typeof format === 'string' ? format : undefined)}</span>;
}
