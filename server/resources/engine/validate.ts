import type { Static, TSchema } from '@sinclair/typebox';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../../http/route.js';
import { invalid } from '../../http/errors.js';
import { isCalendarDate } from '../../plugins/calendar.js';
import { ajvMessage } from '../../plugins/errors.js';

/** Validation for raw routes (multipart, streamed), which the registration does not validate. */
const ajv = addFormats(new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, strict: false, coerceTypes: true })).addFormat(
  'calendar-date',
  isCalendarDate,
);
const cache = new WeakMap<JsonSchema, ReturnType<typeof ajv.compile>>();

export function fieldOf(e: ErrorObject): string {
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const p = e.params as { missingProperty?: string; additionalProperty?: string };
  const extra = p.missingProperty ?? p.additionalProperty;
  return [base, extra].filter(Boolean).join('.') || '(root)';
}

/**
 * Validates (and fills defaults into) `value`, or throws 40001 naming each field. Given a TypeBox
 * schema, the result has the type that schema validates (`Static`); a plain JSON Schema built at
 * run time (an export's filters) names its result type `T` itself.
 */
export function check<S extends TSchema>(schema: S, value: unknown): Static<S>;
export function check<T>(schema: JsonSchema, value: unknown): T;
export function check(schema: JsonSchema, value: unknown): unknown {
  let fn = cache.get(schema);
  if (!fn) cache.set(schema, (fn = ajv.compile(schema)));
  if (!fn(value)) throw invalid((fn.errors ?? []).map((e) => ({ field: fieldOf(e), message: ajvMessage(e) })));
  return value;
}
