/**
 * Preloading the widgets a schema names, so a page renders in one go instead of each lazy
 * widget (table cells included) suspending on its own. Call `preloadSchemaWidgets` once a
 * schema is loaded and before its page renders; a widget rendered before its code arrived
 * still works (the registry shows a light placeholder, then the widget).
 */
import type { Registry } from '../runtime/registry.js';

/** Keys whose string value names a widget (Formily fields, list columns, detail items and sections). */
const NAME_KEYS = ['x-component', 'x-decorator', 'widget'] as const;

/**
 * Every widget name a page schema (or any part of one) uses: `x-component`, `x-decorator`,
 * `widget`, plus `EnumTag` for a column or detail item that names an enum but no widget (the
 * default the list and detail views draw). Names are returned once each, unknown ones too.
 */
export function schemaWidgetNames(schema: unknown): string[] {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    for (const key of NAME_KEYS) if (typeof o[key] === 'string' && o[key]) names.add(o[key]);
    if (typeof o.enum === 'string' && o.widget === undefined) names.add('EnumTag');
    for (const v of Object.values(o)) if (v && typeof v === 'object') walk(v);
  };
  walk(schema);
  return [...names];
}

/**
 * Loads the code of every lazy widget `loaded` names (a LoadedSchema — `{ schema }` — or a
 * bare schema). Always resolves: a widget that failed to load shows its error where it is
 * drawn, and the rest of the page still renders.
 */
export function preloadSchemaWidgets(registry: Registry, loaded: unknown): Promise<void> {
  const schema = loaded && typeof loaded === 'object' && 'schema' in loaded && 'hash' in loaded ? (loaded as { schema: unknown }).schema : loaded;
  const names = schemaWidgetNames(schema).filter((n) => registry.has(n) && !registry.isLoaded(n));
  if (!names.length) return Promise.resolve();
  return registry.preload(names).catch(() => undefined);
}
