import { Tag } from 'antd';
import { useContext, type ReactNode } from 'react';
import { SchemaScopeContext } from '../../runtime/context.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { DisplayProps } from '../../runtime/registry.js';
import { useRuntime } from '../../runtime/context.js';
import type { EnumMap } from '../../runtime/types.js';
import type { ColumnCompiler } from '../list/cell.js';
import { isBlank } from './format.js';

interface InlineOption {
  value: unknown;
  /** i18n key */
  label: string;
  color?: string;
}

interface Shown {
  label: string;
  color?: string;
}

/**
 * value → label and colour, built once (per column in a list): the enum's items first, then the
 * inline options; a value matches an item by identity or by its string form ('1' finds 1).
 */
function lookupOf(enums: EnumMap, enumId: string | undefined, options: unknown, env: RuntimeEnv): (v: unknown) => Shown {
  const byValue = new Map<unknown, Shown>();
  const byString = new Map<string, Shown>();
  const add = (value: unknown, shown: Shown) => {
    if (!byValue.has(value)) byValue.set(value, shown);
    if (!byString.has(String(value))) byString.set(String(value), shown);
  };
  for (const i of (enumId && enums[enumId]?.items) || []) add(i.value, { label: i.label[env.locale], color: i.color });
  // inline options only for values no enum item has (as a find over the items, then the options)
  const inline = Array.isArray(options) ? (options as InlineOption[]) : [];
  const fromEnum = new Set(byString.keys());
  for (const o of inline) if (!fromEnum.has(String(o.value))) add(o.value, { label: env.t(o.label), color: o.color });
  return (v) => byValue.get(v) ?? byString.get(String(v)) ?? { label: String(v) };
}

function tags(value: unknown, find: (v: unknown) => Shown): ReactNode {
  if (isBlank(value)) return <span>-</span>;
  const one = (v: unknown) => {
    const s = find(v);
    return (
      <Tag key={String(v)} color={s.color}>
        {s.label}
      </Tag>
    );
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

/**
 * Enum value as a coloured tag with its label in the current language (arrays: one tag each).
 * Labels come from the enum named by the column / item (`enum`), else from inline `options`
 * (`[{ value, label: "<i18n key>", color }]` in widgetProps / x-component-props).
 */
export function EnumTag({ value, enumId, options }: DisplayProps) {
  const { enums } = useContext(SchemaScopeContext);
  const { env } = useRuntime();
  return <>{tags(value, lookupOf(enums, enumId, options, env))}</>;
}

/** In a list column: the look-up built once for the column, each cell a Tag (no component around it). */
EnumTag.column = ((props, { env, enums, enumId }) => {
  const find = lookupOf(enums, enumId, props.options, env);
  return (value) => tags(value, find);
}) satisfies ColumnCompiler;
