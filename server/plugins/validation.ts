import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { isCalendarDate } from './calendar.js';

/**
 * A validator compiled on its first call, not when the route is registered: Fastify compiles
 * every route's schemas at start-up (about 350 routes: the largest share of a start's CPU),
 * though a process serves only some of them, and most not in its first second. The compiled
 * function is kept; its `errors` are copied where Fastify reads them.
 */
function compileOnFirstUse(ajv: Ajv, schema: object): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= ajv.compile(schema);
    const ok = compiled(data);
    validate.errors = compiled.errors;
    return ok;
  }) as ValidateFunction;
  return validate;
}

/**
 * Two ajv instances: query strings are coerced (`?page=2` → 2, single value → array), bodies
 * are not. Extra properties are never removed silently: schemas say additionalProperties:false
 * (register.ts adds it) and the request is refused with 40001. Each route's validator is compiled
 * when the route is first called (compileOnFirstUse); a schema ajv cannot compile still fails
 * loudly, on that first call — and validation.test.ts compiles every route's schemas, so it fails in
 * CI first. That test also checks each schema against JSON Schema's meta-schema (`checkSchemas`,
 * the default); the server does not (`registerValidation`): the route schemas are our code, fixed
 * at build, and the meta-schema compiled in each process cost its first request ≈ 30 ms of CPU per
 * ajv instance (docs/performance.md "Start-up").
 */
export function validators({ checkSchemas = true }: { checkSchemas?: boolean } = {}): { body: Ajv; query: Ajv } {
  const common = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false, validateSchema: checkSchemas } as const;
  return {
    body: addFormats(new Ajv({ ...common, coerceTypes: false })).addFormat('calendar-date', isCalendarDate),
    query: addFormats(new Ajv({ ...common, coerceTypes: 'array' })).addFormat('calendar-date', isCalendarDate),
  };
}

export function registerValidation(app: FastifyInstance): void {
  const { body, query } = validators({ checkSchemas: false });
  app.setValidatorCompiler(({ schema, httpPart }) => compileOnFirstUse(httpPart === 'body' ? body : query, schema));
}
