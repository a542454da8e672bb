import { Button, Space } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useRuntime } from '../../runtime/context.js';
import { useFormController, type FormOutcome } from '../../runtime/controllers/use-form-controller.js';
import type { FormMode, FormSchema, LoadedSchema } from '../../runtime/types.js';
import { PlainCard } from '../PlainCard.js';
import { useInspect } from '../schema-page/inspect.js';
import { FormFields } from './FormFields.js';

// shown only after a submit that returns a result: its Modal loads then, not with every page
const ResultDialog = lazy(() => import('./ResultDialog.js').then((m) => ({ default: m.ResultDialog })));

type FormPageProps = { loaded: LoadedSchema<FormSchema>; mode: FormMode; params: Record<string, unknown> };

/**
 * A form schema presented as a page (mode from the route). A language switched in place mounts
 * it again: Formily keeps a field's title, description and options from when the field was made,
 * so a mounted form would go on showing the old language (the menu-page walk found the voice
 * fallback page still in English after switching to Chinese). The record is loaded again; edits
 * not yet saved are not carried over.
 */
export function FormPage(props: FormPageProps) {
  const { env } = useRuntime();
  return <LocaleFormPage key={env.locale} {...props} />;
}

function LocaleFormPage({ loaded, mode, params }: FormPageProps) {
  const { env, user } = useRuntime();
  const schema = loaded.schema;
  const ctl = useFormController(schema, { env, mode, params, user });
  useInspect({ mode, params, values: ctl.form.values });
  const back = () => (typeof history !== 'undefined' && history.length > 1 ? history.back() : env.navigate('/'));
  const [shown, setShown] = useState<FormOutcome | null>(null);
  const next = (outcome: FormOutcome) => {
    if (outcome.then === 'navigate') env.navigate(outcome.to);
    else if (outcome.then === 'back' || outcome.then === 'close') back();
  };
  const ok = async () => {
    const outcome = await ctl.submit();
    if (!outcome) return;
    // a reply to read (resultDialog) stays on screen; what comes next waits until it is closed
    if (outcome.result) setShown(outcome);
    else next(outcome);
  };
  return (
    <PlainCard title={ctl.title} data-schema-id={loaded.id}>
      <FormFields schema={schema} ctl={ctl} />
      <Space style={{ marginTop: 16, paddingLeft: '25%' }}>
        {!ctl.readOnly && (
          <Button type="primary" loading={ctl.submitting} onClick={() => void ok()} data-testid="form-submit">
            {env.t(schema.okText ?? 'runtime.form.submit')}
          </Button>
        )}
        <Button onClick={back}>{env.t('runtime.form.back')}</Button>
      </Space>
      {shown?.result && (
        <Suspense fallback={null}>
          <ResultDialog
            result={shown.result}
            onClose={() => {
              setShown(null);
              next(shown);
            }}
          />
        </Suspense>
      )}
    </PlainCard>
  );
}
