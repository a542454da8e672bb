import type { ReactNode } from 'react';
import { useRuntime } from '../../runtime/context.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import { resolvePath } from '../../runtime/expr/template.js';
import type { DisplayProps } from '../../runtime/registry.js';
import type { CellRenderer } from '../list/cell.js';
import { isBlank } from './format.js';

function linkTo(value: unknown, record: Record<string, unknown> | undefined, href: unknown, env: RuntimeEnv): ReactNode {
  if (isBlank(value)) return <span>-</span>;
  const target = typeof href === 'string' ? resolvePath(href, { record: record ?? {}, row: record ?? {}, value }) : String(value);
  if (target.startsWith('/')) {
    return (
      <a
        href={target}
        onClick={(e) => {
          e.preventDefault();
          env.navigate(target);
        }}
      >
        {String(value)}
      </a>
    );
  }
  return (
    <a href={target} target="_blank" rel="noreferrer noopener">
      {String(value)}
    </a>
  );
}

/** A link: `href` template ({{ record.x }}) or the value; internal paths go through env.navigate. */
export function Link({ value, record, href }: DisplayProps) {
  const { env } = useRuntime();
  return linkTo(value, record, href, env);
}

/** In a table cell: the anchor itself, without a component around it. */
Link.cell = ((value, props, { env, record }) => linkTo(value, record, props.href, env)) satisfies CellRenderer;
