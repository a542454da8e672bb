import { connect, mapReadPretty } from '@formily/react';
import { Select, Tag } from 'antd';
import type { SelectProps } from 'antd';
import { useRemoteOptions, type RemoteOptionsProps } from './use-remote-options.js';

type Props = RemoteOptionsProps & Omit<SelectProps, 'options'>;

/** A Select whose options come from an API, e.g. shops from `GET shop-list` with env=all. */
function RemoteSelectInput({ api, params, path, valueKey, labelKey, labelKeys, optionLabel, ...rest }: Props) {
  const { options, loading } = useRemoteOptions({ api, params, path, valueKey, labelKey, labelKeys, optionLabel });
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
