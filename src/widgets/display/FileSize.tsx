import type { DisplayProps } from '../../runtime/registry.js';
import { formatFileSize } from './format.js';

export function FileSize({ value }: DisplayProps) {
  return <span>{formatFileSize(value)}</span>;
}
