/**
 * Folding a long filter bar: the first `shown` filters (6 unless the list's `filtersShown` says
 * otherwise; `false`: never fold) stay in view and the rest fold behind a "more filters" toggle,
 * as antd Pro's query filter does. A bar folds only when at least two filters would be hidden,
 * and a folded filter that holds a value (from the URL) unfolds the bar, so no active filter is
 * ever out of sight. Folded filters are not drawn, so their widgets' code loads when the bar
 * opens (see use-widget-preload.ts), not with the page.
 */
import type { FormilyObject, ListSchema } from '../../runtime/types.js';

export const DEFAULT_FILTERS_SHOWN = 6;

/** The filter keys, in order, split into those always drawn and those behind the toggle. */
export function foldFilters(filters: FormilyObject | undefined, shown: number | false | undefined): { open: string[]; folded: string[] } {
  const keys = Object.keys(filters?.properties ?? {});
  const n = shown === false ? keys.length : (shown ?? DEFAULT_FILTERS_SHOWN);
  if (keys.length - n < 2) return { open: keys, folded: [] };
  return { open: keys.slice(0, n), folded: keys.slice(n) };
}

const hasValue = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** True when a folded filter holds a value: the bar must start unfolded. */
export const foldedHaveValues = (folded: readonly string[], values: Record<string, unknown>) => folded.some((k) => hasValue(values[k]));

/** `filters` with only the given properties (order kept); the same object when nothing is left out. */
export function pickFilters(filters: FormilyObject, keys: readonly string[]): FormilyObject {
  const props = filters.properties ?? {};
  if (keys.length === Object.keys(props).length) return filters;
  return { ...filters, properties: Object.fromEntries(keys.map((k) => [k, props[k]])) };
}

/**
 * A page schema as first drawn: a list's folded filters left out (what its widgets' preload
 * should cover). Any other value — another kind, or JSON not checked yet — is returned as is.
 */
export function asFirstDrawn(schema: unknown): unknown {
  const s = schema as Partial<ListSchema> | null;
  if (!s || typeof s !== 'object' || s.kind !== 'list' || !s.filters || typeof s.filters.properties !== 'object' || !s.filters.properties) return schema;
  const { open, folded } = foldFilters(s.filters, s.filtersShown);
  return folded.length ? { ...s, filters: pickFilters(s.filters, open) } : schema;
}
