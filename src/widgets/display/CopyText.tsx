import { Typography } from 'antd';
import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

export function CopyText({ value }: DisplayProps) {
  if (isBlank(value)) return <span>-</span>;
  return <Typography.Text copyable>{String(value)}</Typography.Text>;
}
