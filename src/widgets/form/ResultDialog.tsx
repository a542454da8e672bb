import { Button, Modal, Typography } from 'antd';
import type { FormResult } from '../../runtime/controllers/use-form-controller.js';
import { useRuntime } from '../../runtime/context.js';

/** A submit reply shown until closed (submit `resultDialog`), e.g. a generated password to copy. */
export function ResultDialog({ result, onClose }: { result: FormResult; onClose(): void }) {
  const { env } = useRuntime();
  return (
    <Modal
      open
      title={result.title}
      modalRender={(node) => <div data-testid="form-result">{node}</div>}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose}>
          {env.t('runtime.form.close')}
        </Button>
      }
    >
      {result.message && <Typography.Paragraph>{result.message}</Typography.Paragraph>}
      {result.copy !== undefined && (
        <Typography.Paragraph
          copyable={{ text: result.copy, tooltips: [env.t('runtime.form.copy'), env.t('runtime.form.copied')] }}
          code
          data-testid="form-result-copy"
          style={{ fontSize: 16, userSelect: 'all' }}
        >
          {result.copy}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
