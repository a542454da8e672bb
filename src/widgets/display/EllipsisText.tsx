import { Typography } from 'antd';
import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

export function EllipsisText({ value, maxWidth }: DisplayProps) {
  if (isBlank(value)) return <span>-</span>;
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return (
    <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: typeof maxWidth === 'number' ? maxWidth : 240 }}>
      {text}
    </Typography.Text>
  );
}
