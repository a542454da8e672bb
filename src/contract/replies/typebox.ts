import { Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * TypeBox shapes shared by the server's route declarations and the reply types of
 * src/contract/replies: the JSON stays plain JSON Schema as the routes always declared it (the
 * same ajv keywords, so the same 40001 issues naming the same fields), and the static type is
 * the one a handler returns and a client reads. The client imports only types from here (no
 * TypeBox code reaches the console's bundle).
 */

/** `{ type: 'string', enum: [...] }` (not TypeBox's `anyOf` of constants), typed as the union of its values. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });

/** `schema` that also takes `null`: `type: [<its type>, 'null']`, and `null` added to its `enum` when it has one. */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  // its JSON keywords only (TypeBox's own symbol keys stay behind)
  const json: Record<string, unknown> = Object.fromEntries(Object.entries(schema));
  return Type.Unsafe<Static<T> | null>({
    ...json,
    type: [schema.type, 'null'],
    ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
  });
}

/** `{ type: 'object' }`: any JSON object (its properties are not checked here). */
export const AnyObject = (options: SchemaOptions = {}) => Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object' });

const looseJson = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(looseJson);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'required') out[k] = looseJson(x);
  if (out.type === 'object') out.additionalProperties = true;
  return out;
};

/**
 * JSON a row keeps as it was stored (a jsonb column written over many versions): typed as
 * `schema` for readers, but its reply schema demands no key and keeps any other key (the
 * serialiser would refuse a reply missing a required key, and drop an unknown one).
 */
export const Stored = <T extends TSchema>(schema: T): TUnsafe<Static<T>> => Type.Unsafe<Static<T>>(looseJson(schema) as Record<string, unknown>);
