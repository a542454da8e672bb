/**
 * The presets every date-range picker offers (issue 26, staff speed): today, yesterday, the last
 * 7 days (today included) and this month, in the browser's time zone. The runtime's
 * `DatePicker.RangePicker` (./DateRange.tsx) and the bespoke session viewers both take them.
 */
import dayjs, { type Dayjs } from 'dayjs';

export const RANGE_PRESETS = ['today', 'yesterday', 'last7Days', 'thisMonth'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** the [start, end] days of a preset, relative to `now` */
export function presetRange(preset: RangePreset, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const today = now.startOf('day');
  switch (preset) {
    case 'today':
      return [today, now.endOf('day')];
    case 'yesterday':
      return [today.subtract(1, 'day'), today.subtract(1, 'day').endOf('day')];
    case 'last7Days':
      return [today.subtract(6, 'day'), now.endOf('day')];
    case 'thisMonth':
      return [now.startOf('month'), now.endOf('day')];
  }
}

/** antd's `presets` prop: labels from `runtime.dateRange.<preset>` */
export function rangePresets(t: (key: string) => string): Array<{ label: string; value: [Dayjs, Dayjs] }> {
  return RANGE_PRESETS.map((p) => ({ label: t(`runtime.dateRange.${p}`), value: presetRange(p) }));
}
