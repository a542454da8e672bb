import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { theme, Tooltip } from 'antd';
import useLocale from 'antd/es/locale/useLocale.js';
import { useEffect, useState } from 'react';
import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

/**
 * The value with a copy button. Drawn without antd's Typography (its editing, ellipsis measuring
 * and TextArea would ship with every list page for this one button); the button keeps
 * Typography's class, icons, tooltip texts and colours.
 */
export function CopyText({ value }: DisplayProps) {
  const [copied, setCopied] = useState(false);
  const [texts] = useLocale('Text');
  const { token } = theme.useToken();
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 3000);
    return () => clearTimeout(t);
  }, [copied]);
  if (isBlank(value)) return <span>-</span>;
  const text = String(value);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(true), () => undefined);
  };
  return (
    <span>
      {text}
      <Tooltip title={copied ? texts?.copied : texts?.copy}>
        <span
          role="button"
          tabIndex={0}
          className="ant-typography-copy"
          aria-label={texts?.copy}
          onClick={copy}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && copy()}
          style={{ marginInlineStart: 4, cursor: 'pointer', color: copied ? token.colorSuccess : token.colorLink }}
        >
          {copied ? <CheckOutlined /> : <CopyOutlined />}
        </span>
      </Tooltip>
    </span>
  );
}
