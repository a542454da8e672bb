import { useRuntime } from '../../runtime/context.js';
import { resolvePath } from '../../runtime/expr/template.js';
import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

/** A link: `href` template ({{ record.x }}) or the value; internal paths go through env.navigate. */
export function Link({ value, record, href }: DisplayProps) {
  const { env } = useRuntime();
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
