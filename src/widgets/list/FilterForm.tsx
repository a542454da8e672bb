import { FormLayout } from '@formily/antd-v5';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useRuntime } from '../../runtime/context.js';
import type { FormilyObject } from '../../runtime/types.js';
import { usePreparedSchema, useSchemaField } from '../form/use-schema-field.js';
import { preloadSchemaWidgets } from '../preload.js';
import { foldedHaveValues, foldFilters, pickFilters } from './filter-fold.js';

interface Props {
  schema: FormilyObject;
  values: Record<string, unknown>;
  onSearch(values: Record<string, unknown>): void;
  onReset(): void;
  scope: Record<string, unknown>;
  /** the list's `filtersShown` (see filter-fold.ts) */
  shown?: number | false;
}

/** The list's filter form (a Formily object schema); values live in the URL query. */
export function FilterForm({ schema, values, onSearch, onReset, scope, shown: filtersShown }: Props) {
  const { env, registry } = useRuntime();
  const SchemaField = useSchemaField();
  const { open, folded } = useMemo(() => foldFilters(schema, filtersShown), [schema, filtersShown]);
  // undefined until the user toggles: unfolded when a folded filter holds a value
  const [unfold, setUnfold] = useState<boolean>();
  const unfolded = folded.length === 0 || (unfold ?? foldedHaveValues(folded, values));
  const drawn = useMemo(() => (unfolded ? schema : pickFilters(schema, open)), [schema, open, unfolded]);
  const prepared = usePreparedSchema(drawn, '/filters');
  const loadFolded = () => void preloadSchemaWidgets(registry, pickFilters(schema, folded));
  // one form per schema and language: Formily keeps a field's title and props from its first
  // render, so a language switch builds the filters again (the values come from the URL); env.t
  // changes once the new language's texts have loaded, a moment after env.locale
  const form = useMemo(() => createForm({ values }), [schema, env.locale, env.t]); // eslint-disable-line react-hooks/exhaustive-deps -- later values are copied in by the effect below
  const key = JSON.stringify(values);
  // the form starts with the values; later query changes (back button, reset) are copied in
  const shown = useRef({ form, key });
  useEffect(() => {
    if (shown.current.form === form && shown.current.key === key) return;
    shown.current = { form, key };
    form.setValues(values, 'overwrite');
  }, [form, key]); // eslint-disable-line react-hooks/exhaustive-deps -- the values by value (their JSON key), not the object's identity
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
            {folded.length > 0 && (
              <Button
                type="link"
                autoInsertSpace={false}
                data-testid="filter-fold"
                aria-expanded={unfolded}
                onMouseEnter={loadFolded}
                onFocus={loadFolded}
                onClick={() => setUnfold(!unfolded)}
              >
                {unfolded ? env.t('runtime.list.lessFilters') : env.t('runtime.list.moreFilters', { count: folded.length })}
                {unfolded ? <UpOutlined /> : <DownOutlined />}
              </Button>
            )}
          </Space>
        </div>
      </FormLayout>
    </FormProvider>
  );
}
