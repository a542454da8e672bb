import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

/** Pretty JSON in a scrollable block (strings holding JSON are parsed first). */
export function JsonView({ value, maxHeight }: DisplayProps) {
  if (isBlank(value)) return <span>-</span>;
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      /* show as is */
    }
  }
  return (
    <pre className="bo-json" tabIndex={0} style={{ maxHeight: typeof maxHeight === 'number' ? maxHeight : 320, overflow: 'auto', margin: 0, fontSize: 12 }}>
      {typeof v === 'string' ? v : JSON.stringify(v, null, 2)}
    </pre>
  );
}
