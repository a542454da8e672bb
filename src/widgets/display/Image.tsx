import { Image as AntImage } from 'antd';
import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

export function Image({ value, width }: DisplayProps) {
  if (isBlank(value)) return <span>-</span>;
  return <AntImage src={String(value)} width={typeof width === 'number' ? width : 48} />;
}
