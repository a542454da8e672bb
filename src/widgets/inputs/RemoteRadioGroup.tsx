import { connect, mapReadPretty } from '@formily/react';
import { Radio, Spin } from 'antd';
import type { RadioGroupProps } from 'antd';
import { useRemoteOptions, type RemoteOptionsProps } from './use-remote-options.js';

type Props = RemoteOptionsProps & Omit<RadioGroupProps, 'options'>;

/** Radio buttons whose options come from an API, e.g. the plan form's products and periods from `GET plan/config`. */
function RemoteRadioGroupInput({ api, params, path, valueKey, labelKey, labelKeys, optionLabel, ...rest }: Props) {
  const { options, loading } = useRemoteOptions({ api, params, path, valueKey, labelKey, labelKeys, optionLabel });
  if (loading && !options.length) return <Spin size="small" />;
  return <Radio.Group {...rest} options={options.map(({ label, value }) => ({ label, value }))} />;
}

function RemoteRadioGroupView({ api, params, path, valueKey, labelKey, labelKeys, optionLabel, value }: Props) {
  const { options } = useRemoteOptions({ api, params, path, valueKey, labelKey, labelKeys, optionLabel });
  if (value === undefined || value === null || value === '') return <span>-</span>;
  return <span>{options.find((o) => o.value === value)?.label ?? String(value)}</span>;
}

export const RemoteRadioGroup = connect(RemoteRadioGroupInput, mapReadPretty(RemoteRadioGroupView));
