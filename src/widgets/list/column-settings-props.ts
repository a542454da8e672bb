/** The props of the column settings button and of the panel it loads lazily (apart, so the panel does not import the button). */
import type { ColumnSettings } from '../../runtime/column-settings.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { ColumnSpec } from '../../runtime/types.js';

export interface ColumnSettingsProps {
  env: RuntimeEnv;
  columns: ColumnSpec[];
  order: string[];
  settings: ColumnSettings;
  save(next: ColumnSettings): void;
  reset(): void;
}
