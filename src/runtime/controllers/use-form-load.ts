/**
 * A form's initial load (edit / view) through the query client: keyed by the load's API and
 * params like every read, cancelled when the form closes first. A form always asks afresh when
 * it opens (staleTime 0: a record is edited from its latest state, never from a cached copy) and
 * takes the reply once per form instance — a later reload of the same key (a write's
 * invalidation while the form is open) does not overwrite what is being edited.
 */
import type { Form } from '@formily/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getPath } from '../api.js';
import { apiKey, readApi } from '../data-layer/keys.js';
import { useDataClient } from '../data-layer/use-data-client.js';
import type { RuntimeEnv } from '../env.js';
import { resolveMap } from '../expr/template.js';

export interface FormLoadSpec {
  /** "GET role/detail" */
  api: string;
  params?: Record<string, unknown>;
  path?: string;
}

export function useFormLoad(form: Form, load: FormLoadSpec | undefined, env: RuntimeEnv, scope: Record<string, unknown>): { loading: boolean; loadError: unknown } {
  const client = useDataClient();
  let params: Record<string, unknown> = {};
  let paramsError: unknown = null;
  try {
    if (load) params = resolveMap(load.params, scope);
  } catch (e) {
    paramsError = e;
  }
  const q = useQuery(
    {
      queryKey: load ? apiKey(load.api, params) : (['form', 'no-load', {}] as const),
      queryFn: ({ queryKey, signal }) => readApi<unknown>(env.http, queryKey[1], queryKey[2], signal),
      enabled: !!load && !paramsError,
      staleTime: 0,
    },
    client,
  );
  const [taken, setTaken] = useState<Form | null>(null);
  const reply = q.isFetchedAfterMount && !q.isFetching && q.isSuccess ? q.data : undefined;
  useEffect(() => {
    if (!load || reply === undefined || taken === form) return;
    const r = getPath(reply, load.path);
    if (r && typeof r === 'object') form.setInitialValues(r, 'overwrite');
    setTaken(form);
  }, [form, load, reply, taken]);

  if (!load) return { loading: false, loadError: null };
  if (paramsError) return { loading: false, loadError: paramsError };
  const failed = q.isFetchedAfterMount && q.isError && taken !== form;
  return { loading: taken !== form && !failed, loadError: failed ? q.error : null };
}
