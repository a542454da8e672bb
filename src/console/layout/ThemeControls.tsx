/** Dark mode and the nine theme colours (default #1677ff); saved locally. */
import { BgColorsOutlined, CheckOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Popover, Space, Switch, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { THEME_COLORS, settingsStore } from '../settings/store.js';

export function DarkModeSwitch() {
  const { t } = useTranslation();
  const dark = settingsStore.use((s) => s.dark);
  return (
    <Tooltip title={t('shell.header.dark')}>
      <Switch
        checked={dark}
        onChange={(v) => settingsStore.set({ dark: v })}
        checkedChildren={<MoonOutlined />}
        unCheckedChildren={<SunOutlined />}
        aria-label={t('shell.header.dark')}
        data-testid="dark-switch"
      />
    </Tooltip>
  );
}

export function ThemeColorPicker() {
  const { t } = useTranslation();
  const current = settingsStore.use((s) => s.primaryColor);
  const swatches = (
    <Space wrap style={{ width: 168 }} data-testid="theme-colors">
      {THEME_COLORS.map((c) => (
        <button
          key={c}
          type="button"
          aria-label={c}
          data-testid={`theme-color-${c.slice(1)}`}
          onClick={() => settingsStore.set({ primaryColor: c })}
          style={{
            width: 28,
            height: 28,
            borderRadius: 6,
            border: 'none',
            cursor: 'pointer',
            background: c,
            color: '#fff',
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
          }}
        >
          {c === current && <CheckOutlined />}
        </button>
      ))}
    </Space>
  );
  return (
    <Popover content={swatches} title={t('shell.header.theme')} trigger="click" placement="bottomRight">
      <Button type="text" icon={<BgColorsOutlined style={{ color: current }} />} aria-label={t('shell.header.theme')} data-testid="theme-picker" />
    </Popover>
  );
}
