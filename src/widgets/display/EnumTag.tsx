import { Tag } from 'antd';
import { useContext } from 'react';
import { SchemaScopeContext } from '../../runtime/context.js';
import type { DisplayProps } from '../../runtime/registry.js';
import { useRuntime } from '../../runtime/context.js';
import { isBlank } from './format.js';

/** Enum value as a coloured tag with its label in the current language (arrays: one tag each). */
export function EnumTag({ value, enumId }: DisplayProps) {
  const { enums } = useContext(SchemaScopeContext);
  const { env } = useRuntime();
  if (isBlank(value)) return <span>-</span>;
  const items = (enumId && enums[enumId]?.items) || [];
  const one = (v: unknown) => {
    const item = items.find((i) => i.value === v || String(i.value) === String(v));
    return (
      <Tag key={String(v)} color={item?.color}>
        {item ? item.label[env.locale] : String(v)}
      </Tag>
    );
  };
  return <>{Array.isArray(value) ? value.map(one) : one(value)}</>;
}
