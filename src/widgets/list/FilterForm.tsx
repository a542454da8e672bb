import { FormLayout } from '@formily/antd-v5';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { Button, Space } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useRuntime } from '../../runtime/context.js';
import type { FormilyObject } from '../../runtime/types.js';
import { usePreparedSchema, useSchemaField } from '../form/use-schema-field.js';

interface Props {
  schema: FormilyObject;
  values: Record<string, unknown>;
  onSearch(values: Record<string, unknown>): void;
  onReset(): void;
  scope: Record<string, unknown>;
}

/** The list's filter form (a Formily object schema); values live in the URL query. */
export function FilterForm({ schema, values, onSearch, onReset, scope }: Props) {
  const { env } = useRuntime();
  const SchemaField = useSchemaField();
  const prepared = usePreparedSchema(schema, '/filters');
  const form = useMemo(() => createForm({ values }), [schema]); // eslint-disable-line react-hooks/exhaustive-deps
  const key = JSON.stringify(values);
  // the form starts with the values; later query changes (back button, reset) are copied in
  const shown = useRef({ form, key });
  useEffect(() => {
    if (shown.current.form === form && shown.current.key === key) return;
    shown.current = { form, key };
    form.setValues(values, 'overwrite');
  }, [form, key]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <FormProvider form={form}>
      <FormLayout layout="inline" {...(schema['x-component-props'] ?? {})}>
        <div className="bo-filters" data-testid="list-filters" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 16 }}>
          {prepared && <SchemaField schema={prepared} scope={scope} />}
          <Space>
            <Button type="primary" onClick={() => onSearch({ ...(form.values as Record<string, unknown>) })} data-testid="filter-search">
              {env.t('runtime.list.search')}
            </Button>
            <Button
              onClick={() => {
                form.reset();
                form.setValues({}, 'overwrite');
                onReset();
              }}
            >
              {env.t('runtime.list.reset')}
            </Button>
          </Space>
        </div>
      </FormLayout>
    </FormProvider>
  );
}
