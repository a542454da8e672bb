import { Type, type TObject, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { Nullable } from '../../http/typebox.js';
import type { JsonSchema } from '../../http/route.js';
import type { FieldDef, ResourceDef } from './types.js';

/** A date or date-time as a date picker sends it (`2026-01-31`, `2026-01-31 08:00:00`, ISO 8601), and a real one. */
export const DATE_PARAM: JsonSchema = {
  type: 'string',
  maxLength: 40,
  // the shape, and a real calendar date (server/plugins/calendar.ts: 2026-02-30 is refused)
  format: 'calendar-date',
};

export const ID: JsonSchema = { type: 'integer', minimum: 1, maximum: 2147483647 };
/** `ID` for TypeBox route schemas (`route()` in server/http/route.ts types the handler from it). */
export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

/**
 * What a query or body built here validates to. The schema is built at run time from a resource
 * declaration, so no closer static type can follow it: a record of the declared fields, plus
 * what the builder itself always puts in (the `id` an update requires).
 */
export type Fields = Record<string, unknown>;
/** A built object schema: TypeBox-typed as `T` for `route()`, its `properties` readable for extending it. */
export type BuiltSchema<T> = TUnsafe<T> & { properties: Record<string, JsonSchema> };
const built = <T>(schema: { type: 'object'; properties: Record<string, JsonSchema> } & JsonSchema): BuiltSchema<T> =>
  Object.assign(Type.Unsafe<T>(schema), { properties: schema.properties });

const isDate = (s: JsonSchema) => s.format === 'date-time';

/** The value schema, with `null` allowed when the field is nullable. */
export function valueSchema(f: FieldDef): JsonSchema {
  if (!f.nullable) return f.schema;
  const t = f.schema.type;
  const types = Array.isArray(t) ? t : [t];
  const out: JsonSchema = { ...f.schema, type: [...types, 'null'] };
  if (Array.isArray(f.schema.enum)) out.enum = [...(f.schema.enum as unknown[]), null];
  return out;
}

/**
 * The reply schema of one field's value: its type (and the items, properties and description
 * of a list or object value) without the write constraints — replies are not re-validated.
 * Scalars are TypeBox's own; a list or object value keeps its declared JSON as it is.
 */
function fieldReply(f: FieldDef): TSchema {
  const s = f.schema;
  const options = s.description ? { description: s.description as string } : {};
  const scalar: Record<string, () => TSchema> = {
    integer: () => Type.Integer(options),
    number: () => Type.Number(options),
    string: () => Type.String(options),
    boolean: () => Type.Boolean(options),
  };
  const one = typeof s.type === 'string' ? scalar[s.type] : undefined;
  if (one) return f.nullable ? Nullable(one()) : one();
  const v = valueSchema(f);
  return Type.Unsafe<unknown>({
    type: v.type,
    ...(v.items ? { items: v.items } : {}),
    ...(v.properties ? { properties: v.properties } : {}),
    ...(v.additionalProperties !== undefined ? { additionalProperties: v.additionalProperties } : {}),
    ...options,
  });
}

/**
 * A row's reply schema, built from the declaration at run time: its fields are known only then,
 * so the static type is a record of them (`Row`), not a closer one. Every field is optional in
 * the schema (no `required`): a bespoke reply built on it may leave one out, and the serialiser
 * refuses a reply that misses a required key.
 */
export type RowReply = TObject<Record<string, TSchema>>;

/** Schema of one row as the list and detail calls return it. */
export function rowSchema(def: ResourceDef, list = false): RowReply {
  const properties: Record<string, TSchema> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (list && f.detailOnly) continue;
    properties[name] = Type.Optional(fieldReply(f));
  }
  return Type.Object(properties);
}

const writable = (f: FieldDef) => !f.readOnly && !f.virtual && !f.serverSet;

/** Body of `x/create`: every writable field, required ones required. */
export function createBodySchema(def: ResourceDef): BuiltSchema<Fields> {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(def.fields)) {
    if (!writable(f)) continue;
    properties[name] = valueSchema(f);
    if (f.required) required.push(name);
  }
  return built<Fields>({ type: 'object', additionalProperties: false, properties, required });
}

/** Body of `x/update`: `id` plus any writable field. */
export function updateBodySchema(def: ResourceDef): BuiltSchema<Fields & { id: number }> {
  const properties: Record<string, JsonSchema> = { id: ID };
  for (const [name, f] of Object.entries(def.fields)) {
    if (!writable(f) || f.createOnly) continue;
    properties[name] = valueSchema(f);
  }
  return built<Fields & { id: number }>({ type: 'object', additionalProperties: false, properties, required: ['id'] });
}

export const idBody = Type.Object({ id: Id }, { additionalProperties: false });
/** `?id=` of a detail route (its own object: a query and a body schema are compiled apart) */
export const idQuery = Type.Object({ id: Id }, { additionalProperties: false });

/** Query of `x/list`: paging, keyword, the declared filters and sorts. */
export function listQuerySchema(def: ResourceDef): BuiltSchema<Fields> {
  const max = def.maxPageSize ?? 100;
  const properties: Record<string, JsonSchema> = {
    page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
    page_size: { type: 'integer', minimum: 1, maximum: max, default: 10 },
  };
  if (def.keyword || def.keywordIds) properties.keyword = { type: 'string', maxLength: 100 };
  const sorts: string[] = [];
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.sort) sorts.push(name);
    if (!f.filter) continue;
    if (f.filter === 'range') {
      const s = isDate(f.schema) ? DATE_PARAM : { type: f.schema.type };
      properties[`${name}_from`] = s;
      properties[`${name}_to`] = s;
    } else {
      const { type, enum: en, format, maxLength, minimum, maximum } = f.schema;
      const s: JsonSchema = { type };
      if (en) s.enum = en;
      if (format) s.format = format;
      if (maxLength) s.maxLength = maxLength;
      if (minimum !== undefined) s.minimum = minimum;
      if (maximum !== undefined) s.maximum = maximum;
      properties[name] = s;
    }
  }
  if (sorts.length) {
    properties.sort_by = { type: 'string', enum: sorts };
    properties.sort_order = { type: 'string', enum: ['asc', 'desc'] };
    // a second sort key (docs/api.md: lists sort by up to two columns)
    properties.then_by = { type: 'string', enum: sorts };
    properties.then_order = { type: 'string', enum: ['asc', 'desc'] };
  }
  return built<Fields>({ type: 'object', additionalProperties: false, properties });
}
