/**
 * Turns a TypeBox type into a standalone JSON Schema document: recursive types (TypeBox
 * `$id` + `$ref`) are hoisted into `$defs` with local refs, so each file works on its own
 * in ajv and in editors, and several can share one ajv instance.
 *
 * Two flavours of the same language (see files.ts):
 *  - editor (the published schemas/meta/*.schema.json): hover text (`description`, `examples`)
 *    kept; a string marked `x-values` (common.ts) also gets `allOf: [{ $ref: '#/$defs/<list>', errorMessage }]`,
 *    a `$defs` entry that enumerates the current widget names / enum ids / permission keys /
 *    API refs, so an editor completes them and flags a wrong one;
 *  - runtime (the precompiled validators): `description`, `examples` and `x-values` dropped,
 *    the marked strings keep their pattern only (their values are checked as references).
 */
import type { TSchema } from '@sinclair/typebox';
import type { ValueList } from './common.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The lists the editor meta-schemas enumerate, by kind of value. */
export type EditorValues = Record<ValueList, readonly string[]>;

/** `$defs` entry of each list in the editor meta-schemas (stripEditorValues removes them). */
export const VALUE_DEFS: Record<ValueList, { def: string; what: string; source: string; example: string }> = {
  widgets: { def: 'WidgetNames', what: 'widget name', source: 'src/widgets/names.ts', example: 'Input' },
  enums: { def: 'EnumIds', what: 'enum id', source: 'a file in schemas/enums', example: 'policy_channel' },
  permissions: {
    def: 'PermissionKeys',
    what: 'permission key',
    source: 'the flattened permission manifest, src/contract/permission-manifest.ts',
    example: 'admin_center.admin.permission.role',
  },
  apis: { def: 'ApiRefs', what: 'API', source: 'the server route table, server/routes (as "METHOD path" under /api/admin/)', example: 'GET role/list' },
};

export interface JsonSchemaOptions {
  /** runtime flavour: no annotations, no value lists */
  runtime?: boolean;
  /** editor flavour: enumerate these lists (omitted: patterns only) */
  values?: EditorValues;
}

/**
 * The `$defs` node of one value list: only the enum (no description, no message), so an
 * editor's hover shows the description of the property that refers to it.
 */
export function valueListDef(values: readonly string[]): Record<string, Json> {
  return { type: 'string', enum: [...new Set(values)].sort() };
}

/**
 * The reference to a value list from a property, with the message an editor shows for a value
 * not in it (VS Code's `errorMessage`; ajv ignores it): the property's description first.
 */
export function valueListRef(list: ValueList, description: unknown): Record<string, Json> {
  const v = VALUE_DEFS[list];
  const what = typeof description === 'string' && description ? `${description}: ` : '';
  return {
    $ref: `#/$defs/${v.def}`,
    errorMessage: `${what}unknown ${v.what}, not in ${v.source}; e.g. "${v.example}" (newly added? run npm run schemas:meta)`,
  };
}

const ANNOTATIONS = new Set(['description', 'examples']);

/**
 * The `$ref` to a fragment (server/schemas/expand.ts), as editors see it: a relative path into
 * schemas/fragments/, then an optional JSON pointer.
 */
export const FRAGMENT_REF: Record<string, Json> = {
  type: 'string',
  pattern: '^(\\.\\./)*(fragments/)?[A-Za-z0-9_./-]+\\.json(#(/[^/]*)*)?$',
  description:
    'a shared fragment from schemas/fragments/ (path relative to this file, then a JSON pointer): it stands for the value there; keys beside it are merged over it; in an array, an array fragment is spliced in',
  examples: ['../../fragments/shop.json#/columns'],
};

/**
 * Editor flavour only: any object of the language may be written as (or start from) a fragment
 * reference, so `$ref` is a known property, and the object's required properties are required
 * only when it has no `$ref` (the fragment brings them). The server, the check and the runtime
 * validators see the expanded document, where no `$ref` is left.
 */
function allowFragmentRef(out: Record<string, Json>): void {
  if (out.discriminator) {
    // a discriminated union (actions): `{ "$ref": … }` has no `type`, so it is tried first
    const union = { ...out };
    for (const k of Object.keys(out)) delete out[k];
    if (union.description !== undefined) out.description = union.description;
    if (union.examples !== undefined) out.examples = union.examples;
    Object.assign(out, { if: { required: ['$ref'] }, then: { properties: { $ref: FRAGMENT_REF } }, else: union });
    return;
  }
  const props = (out.properties ?? {}) as Record<string, Json>;
  if ('$ref' in props) return;
  out.properties = { $ref: FRAGMENT_REF, ...props };
  if (Array.isArray(out.required) && out.required.length) {
    const required = out.required;
    delete out.required;
    out.if = { required: ['$ref'] };
    out.else = { required };
  }
}

export function toJsonSchema(type: TSchema, title: string, options: JsonSchemaOptions = {}): Record<string, Json> {
  const defs: Record<string, Json> = {};
  const ids = new Set<string>();
  const used = new Set<ValueList>();
  const collect = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(collect);
    if (n && typeof n === 'object') {
      const o = n as Record<string, unknown>;
      if (typeof o.$id === 'string') ids.add(o.$id);
      Object.values(o).forEach(collect);
    }
  };
  collect(type);
  /** `schema`: n is a schema node (its annotation keywords may be dropped), not a map of them */
  const walk = (n: unknown, schema = true): Json => {
    if (Array.isArray(n)) return n.map((x) => walk(x));
    if (n && typeof n === 'object') {
      const o = n as Record<string, unknown>;
      if (schema && typeof o.$ref === 'string' && ids.has(o.$ref)) {
        const ref: Record<string, Json> = { $ref: `#/$defs/${o.$ref}` };
        // hover text next to a reference (draft-07 editors merge it into the target)
        if (!options.runtime) for (const k of ANNOTATIONS) if (o[k] !== undefined) ref[k] = walk(o[k], false);
        return ref;
      }
      if (schema && typeof o.$id === 'string') {
        const id = o.$id;
        if (!(id in defs)) {
          defs[id] = {};
          const { $id: _drop, ...rest } = o;
          defs[id] = walk(rest);
        }
        return { $ref: `#/$defs/${id}` };
      }
      const out: Record<string, Json> = {};
      for (const k of Object.keys(o)) {
        if (o[k] === undefined) continue;
        if (schema && k === 'x-values') continue;
        if (schema && options.runtime && ANNOTATIONS.has(k) && typeof o[k] !== 'object') continue;
        if (schema && options.runtime && k === 'examples' && Array.isArray(o[k])) continue;
        const isMap = schema && (k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions');
        if (isMap) {
          const m: Record<string, Json> = {};
          for (const [name, sub] of Object.entries(o[k] as Record<string, unknown>)) m[name] = walk(sub);
          out[k] = m;
        } else {
          // values that are data, not schemas
          const data = !schema || k === 'enum' || k === 'const' || k === 'examples' || k === 'default' || k === 'required';
          out[k] = walk(o[k], !data);
        }
      }
      if (schema && !options.runtime && out.type === 'object') allowFragmentRef(out);
      const list = schema ? (o['x-values'] as ValueList | undefined) : undefined;
      if (list && options.values && !options.runtime) {
        used.add(list);
        out.allOf = [valueListRef(list, o.description)];
      }
      return out;
    }
    return n as Json;
  };
  const body = walk(JSON.parse(JSON.stringify(type))) as Record<string, Json>;
  if (options.values) for (const list of used) defs[VALUE_DEFS[list].def] = valueListDef(options.values[list]);
  const sortedDefs: Record<string, Json> = {};
  for (const k of Object.keys(defs).sort()) sortedDefs[k] = defs[k];
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title,
    ...body,
    ...(Object.keys(sortedDefs).length ? { $defs: sortedDefs } : {}),
  };
}

/**
 * An editor meta-schema without its value lists: the `allOf` references to them and their
 * `$defs` entries removed. What remains validates the structure only (the patterns); the
 * schema check (scripts/lib/check.ts) compiles this, and reports unknown widgets, enums,
 * permissions and APIs itself, by name.
 */
export function stripEditorValues<T>(doc: T): T {
  const defs = new Set(Object.values(VALUE_DEFS).map((v) => `#/$defs/${v.def}`));
  const walk = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(walk);
    if (n && typeof n === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(n as Record<string, unknown>)) {
        if (k === 'allOf' && Array.isArray(v) && v.length === 1 && defs.has((v[0] as { $ref?: string } | null)?.$ref ?? '')) continue;
        out[k] = walk(v);
      }
      return out;
    }
    return n;
  };
  const out = walk(doc) as Record<string, unknown>;
  const $defs = out.$defs as Record<string, unknown> | undefined;
  if ($defs) {
    for (const v of Object.values(VALUE_DEFS)) delete $defs[v.def];
    if (!Object.keys($defs).length) delete out.$defs;
  }
  return out as T;
}
