/**
 * Column settings (visibility, order, width) persisted per user and schema in localStorage
 * under `bo.columns.<userId>.<schemaId>`.
 */
import { useCallback, useMemo, useState } from 'react';

export interface ColumnSettings {
  order: string[];
  hidden: string[];
  widths: Record<string, number>;
}

export const columnSettingsKey = (userId: string | number | null | undefined, schemaId: string) =>
  `bo.columns.${userId ?? 'anon'}.${schemaId}`;

function read(key: string, fallback: ColumnSettings): ColumnSettings {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(key);
    if (!raw) return fallback;
    const v = JSON.parse(raw) as Partial<ColumnSettings>;
    return {
      order: Array.isArray(v.order) ? v.order.filter((x) => typeof x === 'string') : fallback.order,
      hidden: Array.isArray(v.hidden) ? v.hidden.filter((x) => typeof x === 'string') : fallback.hidden,
      widths: v.widths && typeof v.widths === 'object' ? v.widths : {},
    };
  } catch {
    return fallback;
  }
}

/** Applies settings to column keys: saved order first (unknown keys dropped, new keys appended). */
export function orderedKeys(keys: string[], s: ColumnSettings): string[] {
  const known = s.order.filter((k) => keys.includes(k));
  return [...known, ...keys.filter((k) => !known.includes(k))];
}

export function useColumnSettings(userId: string | number | null | undefined, schemaId: string, keys: string[], defaultHidden: string[]) {
  const key = columnSettingsKey(userId, schemaId);
  const fallback = useMemo<ColumnSettings>(() => ({ order: keys, hidden: defaultHidden, widths: {} }), [keys.join(','), defaultHidden.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps -- the column keys by value, not the arrays' identity
  const [state, setState] = useState(() => ({ key, fallback, settings: read(key, fallback) }));
  // another schema, user or column set: read again during render (no effect, no extra commit)
  let settings = state.settings;
  if (state.key !== key || state.fallback !== fallback) {
    settings = read(key, fallback);
    setState({ key, fallback, settings });
  }
  const setSettings = useCallback((next: ColumnSettings) => setState((s) => ({ ...s, settings: next })), []);
  const save = useCallback(
    (next: ColumnSettings) => {
      setSettings(next);
      try {
        localStorage.setItem(key, JSON.stringify(next));
      } catch {
        /* ignore */
      }
    },
    [key, setSettings],
  );
  const reset = useCallback(() => {
    setSettings(fallback);
    try {
      localStorage.removeItem(key);
    } catch {
      /* ignore */
    }
  }, [key, fallback, setSettings]);
  return { settings, save, reset, order: orderedKeys(keys, settings) };
}
