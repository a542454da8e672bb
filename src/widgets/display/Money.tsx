import { useRuntime } from '../../runtime/context.js';
import type { DisplayProps } from '../../runtime/registry.js';
import { formatMoney } from './format.js';

export function Money({ value, currency }: DisplayProps) {
  const { env } = useRuntime();
  return <span>{formatMoney(value, typeof currency === 'string' ? currency : undefined, env.locale)}</span>;
}
