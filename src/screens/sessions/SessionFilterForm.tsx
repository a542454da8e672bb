/** The filter row of a session viewer: shop, mail account, time range (with presets), channel / direction, keyword. */
import { Button, DatePicker, Form, Input, Select, Space } from 'antd';
import { useEffect, useMemo, type ReactNode } from 'react';
import type { RuntimeEnv } from '../../runtime/env.js';
import { rangePresets } from '../../widgets/inputs/date-presets.js';
import { ShopPicker } from '../../widgets/inputs/ShopPicker.js';
import type { MailAccountOption, ShopOption } from './api.js';
import type { FormValues } from './url-filters.js';

interface Props {
  env: RuntimeEnv;
  values: FormValues;
  shops: ShopOption[];
  accounts: MailAccountOption[] | null;
  extra?: { label: string; options: Array<{ value: string; label: string }> };
  onSearch(v: FormValues): void;
  toolbar?: ReactNode;
}

export function SessionFilterForm({ env, values, shops, accounts, extra, onSearch, toolbar }: Props) {
  const [form] = Form.useForm<FormValues>();
  // the form follows the URL (a reload, back / forward, a shared link)
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(values);
  }, [form, values]);
  const presets = useMemo(() => rangePresets(env.t), [env]);
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={onSearch}
      // a pick (shop, account, range, channel) searches at once; the keyword waits for Search / Enter
      onValuesChange={(changed: FormValues) => {
        if (!('keyword' in changed)) onSearch(form.getFieldsValue());
      }}
      style={{ marginBottom: 12, rowGap: 8 }} data-testid="session-filters">
      <Form.Item name="shop_id" label={env.t('session.viewer.shop')}>
        <ShopPicker shops={shops} locale={env.locale} t={env.t} style={{ width: 240 }} popupMatchSelectWidth={320} data-testid="shop-filter" />
      </Form.Item>
      {accounts && (
        <Form.Item name="mail_account_id" label={env.t('session.viewer.mailAccount')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 260 }}
            data-testid="mail-account-filter"
            options={accounts.map((a) => ({ value: a.id, label: `${a.email} · ${a.shop_name ?? `#${a.shop_id}`}` }))}
          />
        </Form.Item>
      )}
      <Form.Item name="range" label={env.t('session.viewer.timeRange')}>
        <DatePicker.RangePicker presets={presets} data-testid="range-filter" />
      </Form.Item>
      {extra && (
        <Form.Item name="extra" label={extra.label}>
          <Select allowClear style={{ width: 150 }} options={extra.options} />
        </Form.Item>
      )}
      <Form.Item name="keyword" label={env.t('session.viewer.keyword')}>
        <Input allowClear placeholder={env.t('session.viewer.keywordPh')} style={{ width: 220 }} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit">
          {env.t('session.viewer.search')}
        </Button>
        <Button onClick={() => onSearch({})}>{env.t('session.viewer.reset')}</Button>
        {toolbar}
      </Space>
    </Form>
  );
}
