import { Tag } from 'antd';
import { useContext } from 'react';
import { SchemaScopeContext } from '../../runtime/context.js';
import type { DisplayProps } from '../../runtime/registry.js';
import { useRuntime } from '../../runtime/context.js';
import { isBlank } from './format.js';

interface InlineOption {
  value: unknown;
  /** i18n key */
  label: string;
  color?: string;
}

/**
 * Enum value as a coloured tag with its label in the current language (arrays: one tag each).
 * Labels come from the enum named by the column / item (`enum`), else from inline `options`
 * (`[{ value, label: "<i18n key>", color }]` in widgetProps / x-component-props).
 */
export function EnumTag({ value, enumId, options }: DisplayProps) {
  const { enums } = useContext(SchemaScopeContext);
  const { env } = useRuntime();
  if (isBlank(value)) return <span>-</span>;
  const fromEnum = (enumId && enums[enumId]?.items) || [];
  const inline = Array.isArray(options) ? (options as InlineOption[]) : [];
  const one = (v: unknown) => {
    const item = fromEnum.find((i) => i.value === v || String(i.value) === String(v));
    if (item) {
      return (
        <Tag key={String(v)} color={item.color}>
          {item.label[env.locale]}
        </Tag>
      );
    }
    const opt = inline.find((o) => o.value === v || String(o.value) === String(v));
    return (
      <Tag key={String(v)} color={opt?.color}>
        {opt ? env.t(opt.label) : String(v)}
      </Tag>
    );
  };
  return <>{Array.isArray(value) ? value.map(one) : one(value)}</>;
}
