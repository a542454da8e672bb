/**
 * The runtime's `DatePicker.RangePicker`: Formily's range picker with the presets of
 * ./date-presets.ts, so every schema's date-range filter offers today, yesterday, the last 7 days
 * and this month without saying so (a schema's own `presets` prop wins).
 */
import { DatePicker } from '@formily/antd-v5/esm/date-picker/index.js';
import { useMemo, type ComponentProps } from 'react';
import { useRuntime } from '../../runtime/context.js';
import { rangePresets } from './date-presets.js';

type Props = ComponentProps<typeof DatePicker.RangePicker>;

export function DateRange(props: Props) {
  const { env } = useRuntime();
  const presets = useMemo(() => rangePresets(env.t), [env]);
  return <DatePicker.RangePicker presets={presets} {...props} />;
}
