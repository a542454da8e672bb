/**
 * Live refresh (`refreshWhile` of list and detail schemas, docs/schemas.md): while a shown value
 * of `field` is one of `in` — in a row, in the record, or in the reply of `watch` — the page is
 * reloaded quietly every `intervalMs` (default 2000). It stops when nothing matches any more
 * (after one last reload when a `watch` stops matching), and while the browser tab is hidden
 * (it reloads at once when the tab shows again).
 */
import { useEffect, useRef, useState } from 'react';
import { callApi, getPath } from '../api.js';
import type { RuntimeEnv } from '../env.js';
import { resolveMap } from '../expr/template.js';
import type { RefreshWhileSpec } from '../types.js';

export const DEFAULT_REFRESH_MS = 2000;

/** The rows a value stands for: an array, a page's `list`, or the object itself. */
export function rowsOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object') {
    const list = (data as { list?: unknown }).list;
    return Array.isArray(list) ? list : [data];
  }
  return [];
}

/** True when some row's `field` is one of `in` (compared as text, so 0 matches "0"). */
export function refreshMatches(spec: Pick<RefreshWhileSpec, 'field' | 'in'>, data: unknown): boolean {
  const wanted = spec.in.map(String);
  return rowsOf(data).some((row) => {
    const v = getPath(row, spec.field);
    return v !== undefined && v !== null && wanted.includes(String(v));
  });
}

/** Whether the document is shown (false while the tab is in the background). */
export function usePageVisible(): boolean {
  const read = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';
  const [visible, setVisible] = useState(read);
  useEffect(() => {
    if (typeof document === 'undefined') return;
    const on = () => setVisible(read());
    document.addEventListener('visibilitychange', on);
    return () => document.removeEventListener('visibilitychange', on);
  }, []);
  return visible;
}

export interface RefreshWhileOptions {
  env: RuntimeEnv;
  /** what `field` is tested on without `watch`: the shown rows (list) or the record (detail) */
  data: unknown;
  /** loads completed so far (0 before the first reply); while idle, a new load checks `watch` again */
  loads: number;
  /** the scope the `watch` params are resolved in */
  scope: Record<string, unknown>;
  /** reloads without a loading state; resolves when the reply is in */
  reload(): Promise<void>;
  /** false: ignore `watch` (a parent page reloads this one) */
  watch?: boolean;
}

/** Runs the live refresh of `spec`; returns whether it is refreshing now. */
export function useRefreshWhile(spec: RefreshWhileSpec | undefined, opts: RefreshWhileOptions): boolean {
  const visible = usePageVisible();
  const watch = spec && opts.watch !== false ? spec.watch : undefined;
  const interval = spec?.intervalMs ?? DEFAULT_REFRESH_MS;
  const [watchLive, setWatchLive] = useState(false);
  const latest = useRef(opts);
  latest.current = opts;
  const hiddenOnce = useRef(false);
  if (!visible) hiddenOnce.current = true;

  const checkWatch = async (): Promise<boolean> => {
    if (!spec || !watch) return false;
    const { env, scope } = latest.current;
    const reply = await callApi<unknown>(env.http, watch.api, resolveMap(watch.params, scope));
    return refreshMatches(spec, getPath(reply, watch.path));
  };

  // idle with a watch: ask it after every load (the first, a filter, an action's refresh)
  useEffect(() => {
    if (!watch || watchLive || opts.loads === 0) return;
    let gone = false;
    checkWatch().then(
      (m) => !gone && m && setWatchLive(true),
      () => undefined,
    );
    return () => {
      gone = true;
    };
  }, [watch, watchLive, opts.loads]); // eslint-disable-line react-hooks/exhaustive-deps -- checked again when the watch, its state or a load changes, not when the check is rebuilt

  const live = !!spec && opts.loads > 0 && (watch ? watchLive : refreshMatches(spec, opts.data));

  useEffect(() => {
    if (!live || !visible) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = async () => {
      const started = Date.now();
      try {
        if (watch) {
          const still = await checkWatch();
          if (stopped) return;
          await latest.current.reload(); // the last reload too, when it just stopped matching
          if (!still) {
            setWatchLive(false);
            return;
          }
        } else {
          await latest.current.reload();
        }
      } catch {
        // a failed reload keeps what is shown; the next one tries again
      }
      if (!stopped) timer = setTimeout(step, Math.max(0, interval - (Date.now() - started)));
    };
    // back from a hidden tab: what is shown may be old, reload at once
    timer = setTimeout(step, hiddenOnce.current ? 0 : interval);
    hiddenOnce.current = false;
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [live, visible, interval, watch]); // eslint-disable-line react-hooks/exhaustive-deps -- the timer restarts on these; each step reads the latest options

  return live && visible;
}
