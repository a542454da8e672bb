import { connect, mapReadPretty } from '@formily/react';
import { Select, Tag } from 'antd';
import type { SelectProps } from 'antd';
import { useMemo } from 'react';
import { useRuntime } from '../../runtime/context.js';
import { ShopPicker } from './ShopPicker.js';
import { useRemoteOptions, type RemoteOption, type RemoteOptionsProps } from './use-remote-options.js';

/** the shared shop lookup: its picker shows id, type and customer and ranks recent shops first */
const SHOP_LIST = 'GET shop-list';

type Props = RemoteOptionsProps & Omit<SelectProps, 'options'>;

/** A Select whose options come from an API, e.g. shops from `GET shop-list` with env=all. */
function RemoteSelectInput({ api, params, path, valueKey, labelKey, labelKeys, optionLabel, ...rest }: Props) {
  const { options, loading } = useRemoteOptions({ api, params, path, valueKey, labelKey, labelKeys, optionLabel });
  if (api === SHOP_LIST) return <RemoteShopPicker options={options} loading={loading} {...rest} />;
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      loading={loading}
      {...rest}
      options={options.map(({ label, value }) => ({ label, value }))}
    />
  );
}

function RemoteShopPicker({ options, ...rest }: Omit<SelectProps, 'options'> & { options: RemoteOption[] }) {
  const { env } = useRuntime();
  const shops = useMemo(
    () =>
      options.map((o) => ({
        id: Number(o.value),
        label: o.label,
        type: typeof o.raw.type === 'number' ? o.raw.type : null,
        customer: typeof o.raw.customer === 'string' ? o.raw.customer : null,
      })),
    [options],
  );
  return <ShopPicker shops={shops} locale={env.locale} t={env.t} {...rest} />;
}

function RemoteSelectView({ api, params, path, valueKey, labelKey, labelKeys, optionLabel, value }: Props) {
  const { options } = useRemoteOptions({ api, params, path, valueKey, labelKey, labelKeys, optionLabel });
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  if (!values.length) return <span>-</span>;
  return (
    <>
      {values.map((v) => (
        <Tag key={String(v)}>{options.find((o) => o.value === v)?.label ?? String(v)}</Tag>
      ))}
    </>
  );
}

export const RemoteSelect = connect(RemoteSelectInput, mapReadPretty(RemoteSelectView));
