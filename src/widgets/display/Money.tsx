import { useRuntime } from '../../runtime/context.js';
import type { DisplayProps } from '../../runtime/registry.js';
import { formatMoney } from './format.js';

/** An amount with two decimals; `currency` (fixed code) or `currencyKey` (field of the record holding the code). */
export function Money({ value, currency, currencyKey, record }: DisplayProps) {
  const { env } = useRuntime();
  const fromRecord = typeof currencyKey === 'string' && record ? record[currencyKey] : undefined;
  const code = typeof fromRecord === 'string' && /^[A-Z]{3}$/.test(fromRecord) ? fromRecord : typeof currency === 'string' ? currency : undefined;
  return <span>{formatMoney(value, code, env.locale)}</span>;
}
