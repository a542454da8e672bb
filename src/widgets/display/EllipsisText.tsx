import { Tooltip } from 'antd';
import { useContext } from 'react';
import type { DisplayProps } from '../../runtime/registry.js';
import { RuntimeContext } from '../../runtime/context.js';
import { pickHalf } from './bilingual.js';
import { isBlank } from './format.js';

/**
 * One line of text cut to `maxWidth` (the whole in a tooltip); `bilingual`: a stored "english / 中文"
 * reason shows its half in the console's language. CSS ellipsis instead of antd's Typography, which
 * would bring its editing and copy parts to every list page.
 */
export function EllipsisText({ value, maxWidth, bilingual }: DisplayProps) {
  const locale = useContext(RuntimeContext)?.env.locale;
  if (isBlank(value)) return <span>-</span>;
  const raw = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const text = bilingual === true && locale ? pickHalf(raw, locale) : raw;
  return (
    <Tooltip title={text}>
      <span
        style={{
          display: 'inline-block',
          maxWidth: typeof maxWidth === 'number' ? maxWidth : 240,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
          verticalAlign: 'bottom',
        }}
      >
        {text}
      </span>
    </Tooltip>
  );
}
