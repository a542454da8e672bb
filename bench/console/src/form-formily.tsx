/** Baseline: the 300-field form as a bare Formily form (createForm + SchemaField + @formily/antd-v5), no schema runtime. */
import { DatePicker, FormItem, FormLayout, Input, NumberPicker, Select } from '@formily/antd-v5';
import { createForm } from '@formily/core';
import { FormProvider, createSchemaField, type ISchema } from '@formily/react';
import { ConfigProvider } from 'antd';
import { createRoot } from 'react-dom/client';
import { FIELD_COUNT, formProperties, label } from './form-fields.js';
import { fail, renderStart, waitForCount, watchKeys } from './measure.js';

const SchemaField = createSchemaField({ components: { FormItem, Input, Select, NumberPicker, DatePicker } });
const schema = { type: 'object', properties: formProperties(FIELD_COUNT, label) } as ISchema;

try {
  watchKeys();
  const form = createForm();
  const root = createRoot(document.getElementById('root')!);
  renderStart();
  root.render(
    <ConfigProvider>
      <FormProvider form={form}>
        <FormLayout labelCol={6} wrapperCol={12}>
          <SchemaField schema={schema} />
        </FormLayout>
      </FormProvider>
    </ConfigProvider>,
  );
  void waitForCount('.ant-formily-item', FIELD_COUNT);
} catch (err) {
  fail(err);
}
