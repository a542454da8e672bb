/** The column settings popover's body (its own chunk: drawn only once the popover opens). */
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button, Checkbox, InputNumber, Space } from 'antd';
import type { ColumnSettingsProps } from './column-settings-props.js';

export default function ColumnSettingsPanel({ env, columns, order, settings, save, reset }: ColumnSettingsProps) {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const keys = order.filter((k) => byKey.has(k));
  const move = (i: number, d: number) => {
    const next = [...keys];
    const [x] = next.splice(i, 1);
    next.splice(Math.max(0, Math.min(next.length, i + d)), 0, x);
    save({ ...settings, order: next });
  };
  return (
    <Space direction="vertical" size={4} data-testid="column-settings">
      {keys.map((k, i) => (
        <Space key={k} size={4}>
          <Checkbox
            checked={!settings.hidden.includes(k)}
            onChange={(e) =>
              save({ ...settings, order: keys, hidden: e.target.checked ? settings.hidden.filter((h) => h !== k) : [...settings.hidden, k] })
            }
          >
            {env.t(byKey.get(k)!.title)}
          </Checkbox>
          <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, -1)} />
          <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === keys.length - 1} onClick={() => move(i, 1)} />
          <InputNumber
            size="small"
            min={40}
            max={1200}
            placeholder={env.t('runtime.columns.width')}
            value={settings.widths[k] ?? byKey.get(k)!.width}
            onChange={(w) => save({ ...settings, order: keys, widths: { ...settings.widths, [k]: Number(w) || 0 } })}
            style={{ width: 80 }}
          />
        </Space>
      ))}
      <Button size="small" onClick={reset}>
        {env.t('runtime.columns.reset')}
      </Button>
    </Space>
  );
}
