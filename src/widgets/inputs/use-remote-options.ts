/**
 * Options loaded from an API ref through the query client (src/runtime/data-layer): pickers that ask
 * for the same API and params share one request and its reply for 30 s (the client's
 * staleTime); a failed request is not kept — the next picker asks again; a write to the API's
 * resource reloads it. A session-wide lookup (`GET shop-list` with env all,
 * src/runtime/session-data.ts) reads the reply kept since sign-in. A param left empty (undefined
 * or null: a reaction feeds it from a field not filled yet, e.g. the plan order's shops of the
 * chosen user) means "not ready": no request, no options.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getPath } from '../../runtime/api.js';
import { useRuntime } from '../../runtime/context.js';
import { apiKey, readApi } from '../../runtime/data-layer/keys.js';
import { useDataClient } from '../../runtime/data-layer/use-data-client.js';
import { evaluate } from '../../runtime/expr/evaluate.js';
import { isSessionLookup, sessionLookup } from '../../runtime/session-data.js';

export interface RemoteOptionsProps {
  /** "GET shop-list" */
  api: string;
  params?: Record<string, unknown>;
  /** dotted path of the array in the reply (default: reply itself, or reply.list) */
  path?: string;
  valueKey?: string;
  labelKey?: string;
  /** the label field per language, e.g. { "zh-CN": "label", "en-US": "label_en" } (before labelKey) */
  labelKeys?: Partial<Record<'zh-CN' | 'en-US', string>>;
  /** expression (no braces) over each item, e.g. "env === 'prod' ? id + '-' + name : name" */
  optionLabel?: string;
}

export interface RemoteOption {
  label: string;
  value: string | number;
  raw: Record<string, unknown>;
}

/** The items of a reply: the array at `path` (or its `list`); plain values stand for { id: v, name: v } (plan/config's currency codes). */
function itemsOf(data: unknown, path: string | undefined): Array<Record<string, unknown>> {
  const found = getPath(data, path);
  const list = Array.isArray(found) ? found : Array.isArray((found as { list?: unknown })?.list) ? (found as { list: unknown[] }).list : [];
  return list.map((x) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>) : { id: x, name: String(x) }));
}

const NONE: Array<Record<string, unknown>> = [];

export function useRemoteOptions(p: RemoteOptionsProps): { options: RemoteOption[]; loading: boolean } {
  const { env } = useRuntime();
  const client = useDataClient();
  const ready = Object.values(p.params ?? {}).every((v) => v !== undefined && v !== null);
  const { http } = env;
  const q = useQuery(
    {
      queryKey: apiKey(p.api, p.params),
      queryFn: ({ queryKey, signal }) =>
        isSessionLookup(p.api, p.params) ? sessionLookup<unknown>(http, p.api, p.params) : readApi<unknown>(http, queryKey[1], queryKey[2], signal, { silent: true }),
      enabled: ready,
    },
    client,
  );
  const path = p.path;
  const list = useMemo(() => (ready && q.data !== undefined ? itemsOf(q.data, path) : NONE), [ready, q.data, path]);
  // labels follow the language without a new request
  const labelKey = p.labelKeys?.[env.locale] ?? p.labelKey ?? 'name';
  const options = useMemo(
    () =>
      list.map((raw) => {
        let label: unknown = raw[labelKey];
        if (p.optionLabel) {
          try {
            label = evaluate(p.optionLabel, { ...raw, item: raw });
          } catch {
            /* keep the plain label */
          }
        }
        return { label: String(label ?? ''), value: raw[p.valueKey ?? 'id'] as string | number, raw };
      }),
    [list, labelKey, p.optionLabel, p.valueKey],
  );
  return { options, loading: ready && q.isLoading };
}
