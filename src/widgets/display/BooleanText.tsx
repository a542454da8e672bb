import { Tag } from 'antd';
import { useRuntime } from '../../runtime/context.js';
import type { DisplayProps } from '../../runtime/registry.js';

export function BooleanText({ value }: DisplayProps) {
  const { env } = useRuntime();
  const on = value === true || value === 1 || value === '1' || value === 'true';
  return <Tag color={on ? 'success' : 'default'}>{env.t(on ? 'runtime.bool.yes' : 'runtime.bool.no')}</Tag>;
}
