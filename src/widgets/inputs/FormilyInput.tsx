/**
 * @formily/antd-v5's Input without its TextArea: the same connect (a loading / validating spinner
 * as suffix, PreviewText when read-pretty) over antd's bare Input, so a filter form's text box does
 * not bring antd's TextArea, Search and OTP along. `Input.TextArea` still comes from Formily's module.
 */
import { LoadingOutlined } from '@ant-design/icons';
import { PreviewText } from '@formily/antd-v5/esm/preview-text/index.js';
import { connect, mapProps, mapReadPretty } from '@formily/react';
import AntdInput from 'antd/es/input/Input.js';

type Busy = { loading?: boolean; validating?: boolean } | undefined;

export const Input = connect(
  AntdInput,
  mapProps((props: { suffix?: unknown }, field) => {
    const f = field as Busy;
    return { ...props, suffix: <span>{f?.loading || f?.validating ? <LoadingOutlined /> : (props.suffix as never)}</span> };
  }),
  mapReadPretty(PreviewText.Input),
);
