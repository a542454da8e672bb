import { Alert } from 'antd';
import { useRuntime } from '../runtime/context.js';

/** The visible error box drawn for a widget name the registry does not know. */
export function UnknownWidget({ name, pointer }: { name?: unknown; pointer?: unknown }) {
  const { env } = useRuntime();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="unknown-widget"
      message={env.t('runtime.widget.unknown', { name: String(name) })}
      description={String(pointer ?? '')}
    />
  );
}
