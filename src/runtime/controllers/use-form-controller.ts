/**
 * Headless form controller: a Formily form for the mode (view = read pretty), the load call
 * for edit / view through the query client (use-form-load.ts; or a record handed in), submit per mode (form values restricted to the
 * schema's fields, merged with the body mapping), field errors from 40001 replies set onto
 * Formily fields, success message, and what happens next. A submit `check` call runs first
 * and refuses the submit (message on a field) when its reply says so.
 */
import { createForm, isField, type Form } from '@formily/core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { vars } from '../actions.js';
import { callApi, fieldErrorsOf, getPath, parseApi } from '../api.js';
import type { RuntimeEnv } from '../env.js';
import { evaluate } from '../expr/evaluate.js';
import { resolveMap, resolvePath } from '../expr/template.js';
import { dataFieldNames, shownIn } from '../formily-schema.js';
import type { FormMode, FormSchema, RuntimeUser } from '../types.js';
import { useFormLoad } from './use-form-load.js';
import { useStable } from './use-stable.js';

export interface FormControllerOptions {
  env: RuntimeEnv;
  mode: FormMode;
  params: Record<string, unknown>;
  /** initial values without a load call (openForm `record`) */
  record?: Record<string, unknown>;
  user?: RuntimeUser | null;
  query?: Record<string, string>;
}

/** A reply to show in a dialog that stays until closed (submit `resultDialog`), texts translated. */
export interface FormResult {
  title: string;
  message?: string;
  /** the value to offer as copyable text */
  copy?: string;
}

export type FormOutcome = ({ then: 'close' | 'back' | 'stay' } | { then: 'navigate'; to: string }) & { result?: FormResult };

export interface FormController {
  form: Form;
  mode: FormMode;
  loading: boolean;
  loadError: unknown;
  submitting: boolean;
  /** validates and submits; resolves with what to do next, or null when it failed */
  submit(): Promise<FormOutcome | null>;
  title: string;
  readOnly: boolean;
  scope: Record<string, unknown>;
}

const pick = (values: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.filter((n) => values[n] !== undefined).map((n) => [n, values[n]]));

export function useFormController(schema: FormSchema, opts: FormControllerOptions): FormController {
  const { env, mode } = opts;
  const spec = schema.modes[mode];
  const readOnly = mode === 'view';
  const record = opts.record;
  const form = useMemo(() => createForm({ readPretty: mode === 'view', initialValues: record ?? {} }), [schema, mode, record]); // eslint-disable-line react-hooks/exhaustive-deps -- a new form for a new schema too, though the form does not read it
  const load = spec?.load ?? (mode !== 'add' ? schema.load : undefined);
  const [submitting, setSubmitting] = useState(false);
  const params = useStable(opts.params);
  const baseScope = useMemo(
    () => ({ params, query: opts.query ?? {}, user: opts.user ?? null, mode, record: record ?? {} }),
    [params, opts.query, mode, record, opts.user],
  );
  const scopeRef = useRef(baseScope);
  scopeRef.current = baseScope;
  const { loading, loadError } = useFormLoad(form, load, env, baseScope);

  const submit = useCallback(async (): Promise<FormOutcome | null> => {
    const submitSpec = spec?.submit;
    if (!submitSpec) return { then: 'close' };
    // a refusal of the previous check is asked again, not left standing
    const checkField = submitSpec.check?.field ? form.query(submitSpec.check.field).take() : undefined;
    if (checkField && isField(checkField)) checkField.setSelfErrors([]);
    try {
      await form.validate();
    } catch {
      return null;
    }
    const values = form.values as Record<string, unknown>;
    const scope = { ...scopeRef.current, values };
    const body = {
      ...(submitSpec.includeValues === false ? {} : pick(values, dataFieldNames(schema.schema, shownIn(mode, env.can)))),
      ...resolveMap(submitSpec.body, scope),
    };
    setSubmitting(true);
    try {
      const check = submitSpec.check;
      if (check) {
        const reply = await callApi<unknown>(env.http, check.api, resolveMap(check.body, scope), { silent: true });
        const replyScope = reply && typeof reply === 'object' ? (reply as Record<string, unknown>) : {};
        if (evaluate(check.refuseWhen, { ...scope, ...replyScope, reply })) {
          const text = env.t(check.message, { ...values, ...vars(reply) });
          if (checkField && isField(checkField)) checkField.setSelfErrors([text]);
          env.notify.error(text);
          return null;
        }
      }
      // a download modal's submit saves the reply as a file (no reply values to show)
      const result = submitSpec.download
        ? await env.http.download(parseApi(submitSpec.api).path, body, { fileName: submitSpec.download.fileName, silent: true })
        : await callApi<unknown>(env.http, submitSpec.api, body, { silent: true });
      const dialog = submitSpec.resultDialog;
      const message = submitSpec.successMessage ?? schema.successMessage;
      if (message && !dialog) env.notify.success(env.t(message, vars(result)));
      const shown: FormResult | undefined = dialog && {
        title: env.t(dialog.title, vars(result)),
        message: dialog.message ? env.t(dialog.message, vars(result)) : undefined,
        copy: dialog.copy ? String(getPath(result, dialog.copy) ?? '') : undefined,
      };
      const extra = shown ? { result: shown } : {};
      const then = schema.then ?? { action: schema.presentation === 'page' ? 'back' : 'close' };
      if (then.action === 'navigate') return { then: 'navigate', to: resolvePath(then.to ?? '/', { ...scope, result }), ...extra };
      return { then: then.action, ...extra };
    } catch (e) {
      const errors = fieldErrorsOf(e);
      if (errors) {
        const unmatched: string[] = [];
        for (const { field, message } of errors) {
          const target = form.query(field).take();
          if (target && isField(target)) target.setSelfErrors([message]);
          else unmatched.push(`${field}: ${message}`);
        }
        env.notify.error(unmatched.length ? unmatched.join('; ') : env.t('runtime.form.invalid'));
      } else {
        env.notify.error(e instanceof Error ? e.message : env.t('runtime.form.failed'));
      }
      return null;
    } finally {
      setSubmitting(false);
    }
  }, [form, spec, schema, env, mode]);

  return {
    form,
    mode,
    loading,
    loadError,
    submitting,
    submit,
    title: env.t(spec?.title ?? schema.title),
    readOnly,
    scope: baseScope,
  };
}
