import type { DisplayProps } from '../../runtime/registry.js';
import type { CellRenderer } from '../list/cell.js';
import { formatFileSize } from './format.js';

export function FileSize({ value }: DisplayProps) {
  return <span>{formatFileSize(value)}</span>;
}

/** In a table cell: the formatted text itself. */
FileSize.cell = ((value) => formatFileSize(value)) satisfies CellRenderer;
