import { Progress as Bar } from 'antd';
import type { DisplayProps } from '../../runtime/registry.js';
import { progressView } from './progress-view.js';

/**
 * A progress bar: `value` is a percent (0–100), or `doneKey` + `totalKey` name the record's
 * fields (the text then reads "done / total"). `statusKey` with `activeValues`,
 * `exceptionValues` and `successValues` colours it by the record's status.
 */
export function Progress({ value, record, doneKey, totalKey, statusKey, activeValues, exceptionValues, successValues }: DisplayProps) {
  const view = progressView(value, record, { doneKey, totalKey, statusKey, activeValues, exceptionValues, successValues });
  if (!view) return <span>-</span>;
  return (
    <span data-progress={view.percent} style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 120, width: '100%' }}>
      <Bar percent={view.percent} status={view.status} size="small" showInfo={false} aria-label={view.text} style={{ flex: 1, margin: 0 }} />
      <span style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{view.text}</span>
    </span>
  );
}
