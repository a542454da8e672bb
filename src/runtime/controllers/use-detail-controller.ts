/** Headless detail controller: loads one record by the schema's load call; refresh. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { callApi, getPath } from '../api.js';
import type { RuntimeEnv } from '../env.js';
import { resolveMap } from '../expr/template.js';
import type { DetailSchema, RuntimeUser } from '../types.js';

export interface DetailController {
  record: Record<string, unknown> | null;
  loading: boolean;
  error: unknown;
  refresh(): void;
  scope: Record<string, unknown>;
}

export function useDetailController(
  schema: DetailSchema,
  opts: { env: RuntimeEnv; params: Record<string, unknown>; query?: Record<string, string>; user?: RuntimeUser | null },
): DetailController {
  const [record, setRecord] = useState<Record<string, unknown> | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const paramsKey = JSON.stringify(opts.params);

  useEffect(() => {
    const id = ++seq.current;
    setLoading(true);
    Promise.resolve()
      .then(() => resolveMap(schema.load.params, { params: opts.params, query: opts.query ?? {}, user: opts.user ?? null }))
      .then((p) => callApi<unknown>(opts.env.http, schema.load.api, p))
      .then((data) => {
        if (id !== seq.current) return;
        const r = getPath(data, schema.load.path);
        setRecord(r && typeof r === 'object' ? (r as Record<string, unknown>) : null);
        setError(null);
      })
      .catch((e: unknown) => id === seq.current && setError(e))
      .finally(() => id === seq.current && setLoading(false));
  }, [schema, paramsKey, tick]); // eslint-disable-line react-hooks/exhaustive-deps

  const refresh = useCallback(() => setTick((t) => t + 1), []);
  const scope = { record: record ?? {}, row: record ?? {}, params: opts.params, query: opts.query ?? {}, user: opts.user ?? null };
  return { record, loading, error, refresh, scope };
}
