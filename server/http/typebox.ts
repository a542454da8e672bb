import { Type, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * TypeBox schemas for the shapes TypeBox writes differently from the plain JSON Schema the routes
 * declared before they were typed: the JSON stays what it was (the same ajv keywords, so the same
 * 40001 issues naming the same fields), and the static type is the one the handler needs. The
 * ones replies share with the console live in src/contract/replies/typebox.ts.
 */

export { AnyObject, Nullable, StringEnum } from '../../src/contract/replies/typebox.js';

/**
 * The reply of a `raw: 'stream'` route that sends bytes (a file, an export), not an envelope:
 * documented in the OpenAPI document under each of `mediaTypes` (server/http/register.ts);
 * `orData`: the `data` of the envelope the route answers instead in some cases (an export too
 * large to stream answers the job it started).
 */
export const FileReply = (mediaTypes: string | string[], description = 'the bytes of the file', orData?: TSchema) =>
  Type.Unsafe<unknown>({
    type: 'string',
    format: 'binary',
    description,
    'x-media-types': Array.isArray(mediaTypes) ? mediaTypes : [mediaTypes],
    ...(orData ? { 'x-or-data': orData } : {}),
  });

/** The reply of a call that answers nothing but its success: `data` is null. */
export const NoReply = Type.Null({ description: 'nothing: data is null' });

/** The reply of a call that answers the id of the row it wrote or removed (a delete, a copy). */
export const IdReply = Type.Object({ id: Type.Integer() });

/** The reply of a picker's options call: rows of `id`, `name` and the picker's other `props`. */
export const OptionList = <P extends TProperties>(props: P) => Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), ...props }));

/** No query parameters at all (an options call): `{ type: 'object', properties: {}, additionalProperties: false }`. */
export const NoQuery = Type.Object({}, { additionalProperties: false });
