/** The widgets layer's `prepare` for schema hooks: the lazy widgets a schema names are loaded before it renders. */
import { useMemo } from 'react';
import { useRuntime } from '../../runtime/context.js';
import type { PrepareSchema } from '../../runtime/use-schema.js';
import { preloadSchemaWidgets, schemaWidgetNames } from '../preload.js';

export function useWidgetPreload(): PrepareSchema {
  const { registry } = useRuntime();
  return useMemo<PrepareSchema>(
    () => (loaded) =>
      schemaWidgetNames(loaded.schema).some((n) => registry.has(n) && !registry.isLoaded(n)) ? preloadSchemaWidgets(registry, loaded) : undefined,
    [registry],
  );
}
