/**
 * Headless detail controller: loads one record by the schema's load call; refresh, and the
 * live refresh of `refreshWhile` (quiet reloads: the record stays shown, no loading state).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { callApi, getPath } from '../api.js';
import type { RuntimeEnv } from '../env.js';
import { resolveMap } from '../expr/template.js';
import type { DetailSchema, RuntimeUser } from '../types.js';
import { useRefreshWhile } from './use-refresh-while.js';

export interface DetailController {
  record: Record<string, unknown> | null;
  loading: boolean;
  error: unknown;
  refresh(): void;
  /** reloads without a loading state; resolves when the reply is in */
  refreshQuietly(): Promise<void>;
  /** replies (or failures) so far: embedded lists reload when it grows after the first */
  loads: number;
  /** `refreshWhile` is reloading the record now */
  live: boolean;
  scope: Record<string, unknown>;
}

export function useDetailController(
  schema: DetailSchema,
  opts: { env: RuntimeEnv; params: Record<string, unknown>; query?: Record<string, string>; user?: RuntimeUser | null },
): DetailController {
  const [record, setRecord] = useState<Record<string, unknown> | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [loads, setLoads] = useState(0);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const quiet = useRef(false);
  const waiters = useRef<Array<() => void>>([]);
  const paramsKey = JSON.stringify(opts.params);

  useEffect(() => {
    const id = ++seq.current;
    const isQuiet = quiet.current;
    quiet.current = false;
    if (!isQuiet) setLoading(true);
    Promise.resolve()
      .then(() => resolveMap(schema.load.params, { params: opts.params, query: opts.query ?? {}, user: opts.user ?? null }))
      .then((p) => callApi<unknown>(opts.env.http, schema.load.api, p))
      .then((data) => {
        if (id !== seq.current) return;
        const r = getPath(data, schema.load.path);
        setRecord(r && typeof r === 'object' ? (r as Record<string, unknown>) : null);
        setError(null);
      })
      .catch((e: unknown) => id === seq.current && !isQuiet && setError(e))
      .finally(() => {
        if (id !== seq.current) return;
        setLoading(false);
        setLoads((n) => n + 1);
        const w = waiters.current;
        waiters.current = [];
        for (const f of w) f();
      });
  }, [schema, paramsKey, tick]); // eslint-disable-line react-hooks/exhaustive-deps -- params by value (paramsKey), not by identity

  const refresh = useCallback(() => setTick((t) => t + 1), []);
  const refreshQuietly = useCallback(
    () =>
      new Promise<void>((resolve) => {
        waiters.current.push(resolve);
        quiet.current = true;
        setTick((t) => t + 1);
      }),
    [],
  );
  const scope = { record: record ?? {}, row: record ?? {}, params: opts.params, query: opts.query ?? {}, user: opts.user ?? null };
  const live = useRefreshWhile(schema.refreshWhile, { env: opts.env, data: record, loads, scope, reload: refreshQuietly });
  return { record, loading, error, refresh, refreshQuietly, loads, live, scope };
}
