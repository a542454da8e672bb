import { Tag } from 'antd';
import { useRuntime } from '../../runtime/context.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { DisplayProps } from '../../runtime/registry.js';
import type { ColumnCompiler } from '../list/cell.js';

const isOn = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

const tagOf = (on: boolean, yes: string, no: string) => <Tag color={on ? 'success' : 'default'}>{on ? yes : no}</Tag>;

const labels = (env: RuntimeEnv) => [env.t('runtime.bool.yes'), env.t('runtime.bool.no')] as const;

export function BooleanText({ value }: DisplayProps) {
  const { env } = useRuntime();
  const [yes, no] = labels(env);
  return tagOf(isOn(value), yes, no);
}

/** In a list column: the two labels translated once for the column, each cell a Tag. */
BooleanText.column = ((_props, { env }) => {
  const [yes, no] = labels(env);
  return (value) => tagOf(isOn(value), yes, no);
}) satisfies ColumnCompiler;
