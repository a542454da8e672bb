import { Button, Drawer, Modal, Space } from 'antd';
import { useState } from 'react';
import type { OpenFormRequest } from '../../runtime/actions.js';
import { SchemaScopeContext, useRuntime } from '../../runtime/context.js';
import { useFormController, type FormResult } from '../../runtime/controllers/use-form-controller.js';
import type { FormSchema, LoadedSchema } from '../../runtime/types.js';
import { FormFields } from './FormFields.js';
import { ResultDialog } from './ResultDialog.js';

/** A form schema presented as a modal or a drawer; `onDone(true)` after a successful submit. */
export function FormDialog({ loaded, req, onDone }: { loaded: LoadedSchema<FormSchema>; req: OpenFormRequest; onDone(ok: boolean): void }) {
  const { env, user } = useRuntime();
  const schema = loaded.schema;
  const [open, setOpen] = useState(true);
  const [result, setResult] = useState<FormResult | null>(null);
  const ctl = useFormController(schema, { env, mode: req.mode, params: req.params, record: req.record, user });
  const close = (ok: boolean) => {
    setOpen(false);
    onDone(ok);
  };
  const ok = async () => {
    const outcome = await ctl.submit();
    if (!outcome) return;
    if (outcome.then === 'navigate') env.navigate(outcome.to);
    if (outcome.result) setResult(outcome.result);
    else if (outcome.then !== 'stay') close(true);
  };
  // the reply stays on screen (e.g. a generated password to copy) until closed
  if (result) return <ResultDialog result={result} onClose={() => close(true)} />;
  const footer = (
    <Space>
      <Button onClick={() => close(false)}>{env.t(ctl.readOnly ? 'runtime.form.close' : 'runtime.form.cancel')}</Button>
      {!ctl.readOnly && (
        <Button type="primary" loading={ctl.submitting} onClick={() => void ok()} data-testid="form-submit">
          {env.t(schema.okText ?? 'runtime.form.submit')}
        </Button>
      )}
    </Space>
  );
  const body = (
    <SchemaScopeContext.Provider value={{ schemaId: loaded.id, enums: loaded.enums, fields: loaded.fields }}>
      <FormFields schema={schema} ctl={ctl} />
    </SchemaScopeContext.Provider>
  );
  if (schema.presentation === 'drawer') {
    return (
      <Drawer open={open} title={ctl.title} width={schema.width ?? 560} onClose={() => close(false)} footer={footer} destroyOnHidden>
        {body}
      </Drawer>
    );
  }
  return (
    <Modal open={open} title={ctl.title} width={schema.width ?? 560} onCancel={() => close(false)} footer={footer} destroyOnHidden>
      {body}
    </Modal>
  );
}
