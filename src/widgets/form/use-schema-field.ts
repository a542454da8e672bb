/** A Formily SchemaField bound to the registry (one per registry), plus schema preparation. */
import { createSchemaField } from '@formily/react';
import { useContext, useMemo, type ComponentType } from 'react';
import { SchemaScopeContext, useRuntime } from '../../runtime/context.js';
import { prepareFormilySchema } from '../../runtime/formily-schema.js';
import type { FormMode, FormilyObject } from '../../runtime/types.js';
import type { Registry } from '../../runtime/registry.js';
import { UNKNOWN_WIDGET } from '../../contract/widget-names.js';
import { formilyComponents } from '../registry.js';

/** The SchemaField component type (props: schema + scope). */
export type SchemaFieldComponent = ComponentType<{ schema: Record<string, unknown>; scope?: Record<string, unknown> }>;

const cache = new WeakMap<Registry, SchemaFieldComponent>();

export function useSchemaField(): SchemaFieldComponent {
  const { registry } = useRuntime();
  let field = cache.get(registry);
  if (!field) {
    field = createSchemaField({ components: formilyComponents(registry) as never }) as unknown as SchemaFieldComponent;
    cache.set(registry, field);
  }
  return field;
}

/** Translated, permission- and mode-filtered Formily schema with unknown widgets caught. */
export function usePreparedSchema(schema: FormilyObject | undefined, pointer: string, mode?: FormMode) {
  const { env, registry } = useRuntime();
  const { enums, fields } = useContext(SchemaScopeContext);
  return useMemo(
    () =>
      schema
        ? prepareFormilySchema(schema, {
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
          })
        : null,
    [schema, pointer, mode, enums, fields, env, registry],
  );
}
