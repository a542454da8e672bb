/** A Formily SchemaField bound to the registry (one per registry), plus schema preparation. */
import { Schema } from '@formily/json-schema';
import { createSchemaField } from '@formily/react';
import { useContext, useMemo, useState, type ComponentType } from 'react';
import { SchemaScopeContext, useRuntime } from '../../runtime/context.js';
import { prepareFormilySchema } from '../../runtime/formily-schema.js';
import type { FormMode, FormilyObject } from '../../runtime/types.js';
import type { Registry } from '../../runtime/registry.js';
import { UNKNOWN_WIDGET } from '../../contract/widget-names.js';
import { formilyComponents } from '../registry.js';

/** The SchemaField component type (props: schema + scope). */
export type SchemaFieldComponent = ComponentType<{ schema: Record<string, unknown> | Schema; scope?: Record<string, unknown> }>;

/** per registry, per set of loaded widgets: SchemaFields built from the loaded components themselves */
const cache = new WeakMap<Registry, Map<string, SchemaFieldComponent>>();

/**
 * The SchemaField of the registry as its widgets stand when the form mounts: loaded widgets are
 * handed to Formily directly (no lazy wrapper per field), the rest as their wrappers. A mounted
 * form keeps the one it started with (a new component type would remount its fields); a form
 * mounted after more widgets loaded gets a newer one. Built once per set of loaded widgets.
 */
export function useSchemaField(): SchemaFieldComponent {
  const { registry } = useRuntime();
  const [kept, setKept] = useState(() => ({ registry, field: schemaFieldOf(registry) }));
  if (kept.registry !== registry) {
    // another registry (tests, a provider swapped): adjust while rendering, as useStable does
    const field = schemaFieldOf(registry);
    setKept({ registry, field });
    return field;
  }
  return kept.field;
}

function schemaFieldOf(registry: Registry): SchemaFieldComponent {
  const loadedKey = registry.names.filter((n) => registry.isLoaded(n)).join(',');
  let byLoaded = cache.get(registry);
  if (!byLoaded) cache.set(registry, (byLoaded = new Map()));
  let made = byLoaded.get(loadedKey);
  if (!made) {
    made = createSchemaField({ components: formilyComponents(registry) as never }) as unknown as SchemaFieldComponent;
    byLoaded.set(loadedKey, made);
  }
  return made;
}

/**
 * Translated, permission- and mode-filtered Formily schema with unknown widgets caught, compiled
 * to Formily's Schema once per schema version, mode and locale. Handed a plain object, Formily's
 * SchemaField builds a new Schema tree on each of its renders (every field's Schema again, and
 * with it a render of every field); handed this instance, it reuses it.
 */
export function usePreparedSchema(schema: FormilyObject | undefined, pointer: string, mode?: FormMode) {
  const { env, registry } = useRuntime();
  const { enums, fields } = useContext(SchemaScopeContext);
  return useMemo(
    () =>
      schema
        ? compile(prepareFormilySchema(schema, {
            t: env.t,
            can: env.can,
            mode,
            enums,
            fields,
            locale: env.locale,
            hasWidget: (n) => registry.has(n) && n !== UNKNOWN_WIDGET,
            strict: registry.strict,
            unknownWidget: UNKNOWN_WIDGET,
            pointer,
          }))
        : null,
    [schema, pointer, mode, enums, fields, env, registry],
  );
}

const compile = (prepared: Record<string, unknown>): Schema => new Schema({ type: 'object', ...prepared });
