import { SettingOutlined } from '@ant-design/icons';
import { Button, Popover, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import type { ColumnSettingsProps } from './column-settings-props.js';

// the panel (checkboxes, number inputs) is fetched when the button is first hovered or clicked
const loadPanel = () => import('./ColumnSettingsPanel.js');
const ColumnSettingsPanel = lazy(loadPanel);

/** Column visibility, order and width; saved per user and schema. */
export function ColumnSettingsButton(props: ColumnSettingsProps) {
  const { env } = props;
  return (
    <Popover
      trigger="click"
      // the popup (and so the panel) is first drawn when it first opens
      content={
        <Suspense fallback={<Spin size="small" />}>
          <ColumnSettingsPanel {...props} />
        </Suspense>
      }
      title={env.t('runtime.columns.title')}
      placement="bottomRight"
    >
      <Button icon={<SettingOutlined />} aria-label={env.t('runtime.columns.title')} onMouseEnter={() => void loadPanel().catch(() => undefined)} />
    </Popover>
  );
}
