/**
 * The widgets layer's `prepare` for schema hooks: the renderer of the schema's kind and the
 * lazy widgets it names are loaded before it renders.
 */
import { useMemo } from 'react';
import { useRuntime } from '../../runtime/context.js';
import type { PrepareSchema } from '../../runtime/use-schema.js';
import { asFirstDrawn } from '../list/filter-fold.js';
import { preloadSchemaWidgets, schemaWidgetNames } from '../preload.js';
import { prepareView } from './views.js';

export function useWidgetPreload(): PrepareSchema {
  const { registry } = useRuntime();
  return useMemo<PrepareSchema>(
    () => (loaded) => {
      const view = prepareView(loaded.schema.kind);
      // what the page draws first: a list's folded filters load when the bar unfolds
      const schema = asFirstDrawn(loaded.schema);
      const widgets = schemaWidgetNames(schema).some((n) => registry.has(n) && !registry.isLoaded(n))
        ? preloadSchemaWidgets(registry, schema)
        : undefined;
      return view || widgets ? Promise.all([view, widgets]) : undefined;
    },
    [registry],
  );
}
