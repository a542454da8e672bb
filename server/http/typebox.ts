import { Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * TypeBox schemas for the shapes TypeBox writes differently from the plain JSON Schema the routes
 * declared before they were typed: the JSON stays what it was (the same ajv keywords, so the same
 * 40001 issues naming the same fields), and the static type is the one the handler needs.
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
