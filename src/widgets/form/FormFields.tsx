import { FormLayout } from '@formily/antd-v5';
import { FormProvider } from '@formily/react';
import { Alert, Spin } from 'antd';
import type { FormController } from '../../runtime/controllers/use-form-controller.js';
import { useRuntime } from '../../runtime/context.js';
import type { FormSchema } from '../../runtime/types.js';
import { usePreparedSchema, useSchemaField } from './use-schema-field.js';

/** The Formily fields of a form schema, drawn for a controller (no buttons). */
export function FormFields({ schema, ctl }: { schema: FormSchema; ctl: FormController }) {
  const { env } = useRuntime();
  const SchemaField = useSchemaField();
  const prepared = usePreparedSchema(schema.schema, '/schema', ctl.mode);
  if (ctl.loadError) return <Alert type="error" showIcon message={env.t('runtime.form.loadFailed')} description={String((ctl.loadError as Error)?.message ?? ctl.loadError)} />;
  return (
    <Spin spinning={ctl.loading}>
      <FormProvider form={ctl.form}>
        <FormLayout labelCol={6} wrapperCol={16} {...(schema.layout ?? {})}>
          {prepared && <SchemaField schema={prepared} scope={ctl.scope} />}
        </FormLayout>
      </FormProvider>
    </Spin>
  );
}
