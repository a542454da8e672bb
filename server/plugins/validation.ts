import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { isCalendarDate } from './calendar.js';

/**
 * Two ajv instances: query strings are coerced (`?page=2` → 2, single value → array), bodies
 * are not. Extra properties are never removed silently: schemas say additionalProperties:false
 * (register.ts adds it) and the request is refused with 40001.
 */
export function registerValidation(app: FastifyInstance): void {
  const common = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false } as const;
  const body = addFormats(new Ajv({ ...common, coerceTypes: false })).addFormat('calendar-date', isCalendarDate);
  const query = addFormats(new Ajv({ ...common, coerceTypes: 'array' })).addFormat('calendar-date', isCalendarDate);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? body.compile(schema) : query.compile(schema),
  );
}
