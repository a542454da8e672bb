/**
 * Options loaded from an API ref through the env: a session-wide lookup (`GET shop-list` with
 * env all, src/runtime/session-data.ts) reads the reply kept since sign-in; any other call is
 * shared by the pickers that ask within 30 s. A param left empty (undefined or null: a reaction
 * feeds it from a field not filled yet, e.g. the plan order's shops of the chosen user) means
 * "not ready": no request, no options.
 */
import { useEffect, useMemo, useState } from 'react';
import { callApi, getPath } from '../../runtime/api.js';
import { useRuntime } from '../../runtime/context.js';
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

const memo = new Map<string, Promise<unknown>>();

export function useRemoteOptions(p: RemoteOptionsProps): { options: RemoteOption[]; loading: boolean } {
  const { env } = useRuntime();
  const [state, setState] = useState<{ list: Array<Record<string, unknown>>; loading: boolean }>({ list: [], loading: true });
  const ready = Object.values(p.params ?? {}).every((v) => v !== undefined && v !== null);
  const key = ready ? `${p.api}?${JSON.stringify(p.params ?? {})}` : '';
  useEffect(() => {
    if (!key) {
      setState({ list: [], loading: false });
      return;
    }
    let live = true;
    let pending = isSessionLookup(p.api, p.params) ? sessionLookup(env.http, p.api, p.params) : memo.get(key);
    if (!pending) {
      pending = callApi<unknown>(env.http, p.api, p.params ?? {}, { silent: true });
      memo.set(key, pending);
      setTimeout(() => memo.delete(key), 30_000);
    }
    pending
      .then((data) => {
        if (!live) return;
        const found = getPath(data, p.path);
        const list = Array.isArray(found) ? found : Array.isArray((found as { list?: unknown })?.list) ? (found as { list: unknown[] }).list : [];
        // plain values (e.g. plan/config's currency codes) stand for { id: v, name: v }
        const items = list.map((x) => (x !== null && typeof x === 'object' ? x : { id: x, name: String(x) }));
        setState({ list: items as Array<Record<string, unknown>>, loading: false });
      })
      .catch(() => live && setState({ list: [], loading: false }));
    return () => {
      live = false;
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps -- `key` is made of every input of the fetch
  // labels follow the language without a new request
  const labelKey = p.labelKeys?.[env.locale] ?? p.labelKey ?? 'name';
  const options = useMemo(
    () =>
      state.list.map((raw) => {
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
    [state.list, labelKey, p.optionLabel, p.valueKey],
  );
  return { options, loading: state.loading };
}
