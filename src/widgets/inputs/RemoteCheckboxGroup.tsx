import { connect, mapReadPretty } from '@formily/react';
import { Checkbox, Spin, Tag } from 'antd';
import type { CheckboxGroupProps } from 'antd/es/checkbox';
import { useRemoteOptions, type RemoteOptionsProps } from './use-remote-options.js';

type Props = RemoteOptionsProps & Omit<CheckboxGroupProps, 'options'>;

/** Checkboxes whose options come from an API, e.g. the notice form's target types from `GET notification/target-types`. */
function RemoteCheckboxGroupInput({ api, params, path, valueKey, labelKey, labelKeys, optionLabel, ...rest }: Props) {
  const { options, loading } = useRemoteOptions({ api, params, path, valueKey, labelKey, labelKeys, optionLabel });
  if (loading && !options.length) return <Spin size="small" />;
  return <Checkbox.Group {...rest} options={options.map(({ label, value }) => ({ label, value }))} />;
}

function RemoteCheckboxGroupView({ api, params, path, valueKey, labelKey, labelKeys, optionLabel, value }: Props) {
  const { options } = useRemoteOptions({ api, params, path, valueKey, labelKey, labelKeys, optionLabel });
  const values = Array.isArray(value) ? value : [];
  if (!values.length) return <span>-</span>;
  return (
    <>
      {values.map((v) => (
        <Tag key={String(v)}>{options.find((o) => o.value === v)?.label ?? String(v)}</Tag>
      ))}
    </>
  );
}

export const RemoteCheckboxGroup = connect(RemoteCheckboxGroupInput, mapReadPretty(RemoteCheckboxGroupView));
