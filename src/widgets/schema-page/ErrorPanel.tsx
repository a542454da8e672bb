import { Alert, Typography } from 'antd';
import { useRuntime } from '../../runtime/context.js';
import type { SchemaProblem } from '../../runtime/types.js';

/** Why a schema cannot be shown: schema id (file), JSON pointer and reason per problem. */
export function ErrorPanel({ problems }: { problems: SchemaProblem[] }) {
  const { env } = useRuntime();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="schema-error-panel"
      message={env.t('runtime.error.title')}
      description={
        <ul style={{ margin: 0, paddingLeft: 16 }}>
          {problems.slice(0, 20).map((p, i) => (
            <li key={i}>
              <Typography.Text code>{p.file ?? p.id}</Typography.Text> <Typography.Text code>{p.pointer || '/'}</Typography.Text> {p.reason}
            </li>
          ))}
        </ul>
      }
    />
  );
}
