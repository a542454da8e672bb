import type { DisplayProps } from '../../runtime/registry.js';
import type { CellRenderer } from '../list/cell.js';
import { formatDateTime } from './format.js';

const formatOf = (format: unknown) => (typeof format === 'string' ? format : undefined);

export function DateTime({ value, format }: DisplayProps) {
  return <span>{formatDateTime(value, formatOf(format))}</span>;
}

/** In a table cell: the formatted text itself. */
DateTime.cell = ((value, props) => formatDateTime(value, formatOf(props.format))) satisfies CellRenderer;
