import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Rewrites the JSON Schema (draft 2019/2020) constructs the route schemas use into their
 * OpenAPI 3.0 forms, in place, so standard parsers and client generators accept the document:
 * numeric `exclusiveMinimum`/`exclusiveMaximum` → `minimum`/`maximum` plus a boolean flag;
 * `const` → a one-value `enum`; `type: [T, 'null']` → `type: T, nullable: true`; `type: 'null'`
 * → `nullable: true, enum: [null]`; and
 * `examples` (an array in JSON Schema) → `example`.
 */
export function toOpenApi30Schema(s: unknown): void {
  if (Array.isArray(s)) {
    for (const x of s) toOpenApi30Schema(x);
    return;
  }
  if (!isObj(s)) return;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof s[flag] === 'number') {
      const n = s[flag] as number;
      // an inclusive bound that is already tighter wins; otherwise the exclusive one
      const tighter = typeof s[bound] === 'number' && (flag === 'exclusiveMinimum' ? (s[bound] as number) > n : (s[bound] as number) < n);
      if (tighter) delete s[flag];
      else {
        s[bound] = n;
        s[flag] = true;
      }
    }
  }
  if ('const' in s && !('enum' in s)) {
    s.enum = [s.const];
    delete s.const;
  }
  if (Array.isArray(s.type)) {
    const types = (s.type as string[]).filter((t) => t !== 'null');
    if (types.length < (s.type as string[]).length) s.nullable = true;
    if (types.length === 1) s.type = types[0];
    else {
      delete s.type;
      if (types.length > 1 && !s.anyOf) s.anyOf = types.map((t) => ({ type: t }));
    }
  }
  // a reply of nothing (`data: null`, TypeBox's Null): 3.0 has no null type
  if (s.type === 'null') {
    delete s.type;
    s.nullable = true;
    s.enum = [null];
  }
  if (Array.isArray(s.examples)) {
    if (s.examples.length && !('example' in s)) s.example = s.examples[0];
    delete s.examples;
  }
  for (const v of Object.values(s)) if (v && typeof v === 'object') toOpenApi30Schema(v);
}

/**
 * Whole-document pass: schemas in 3.0 form everywhere, and operation parameters whose schema
 * is not a schema object (a query schema's `additionalProperties: true` turns into a
 * "parameter" whose schema is `true`) dropped — such a route accepts any extra parameter,
 * which OpenAPI says by not listing it.
 */
export function toOpenApi30(input: Json): Json {
  // a copy: the route schemas themselves stay as they are
  const doc = structuredClone(input);
  const paths = isObj(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObj(item)) continue;
    for (const op of Object.values(item)) {
      if (!isObj(op) || !Array.isArray(op.parameters)) continue;
      op.parameters = op.parameters.filter((p) => !isObj(p) || !('schema' in p) || isObj(p.schema));
      if (!(op.parameters as unknown[]).length) delete op.parameters;
    }
  }
  toOpenApi30Schema(doc.paths);
  toOpenApi30Schema(doc.components);
  return doc;
}

/** OpenAPI from the route schemas: UI at /api/docs, JSON at /api/docs/json. Register before routes. */
export async function registerDocs(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Backoffice Console API', version, description: 'Envelope { code, msg, data }; see docs/api.md.' },
      components: {
        securitySchemes: {
          adminToken: { type: 'apiKey', in: 'header', name: 'admin-token', description: 'plus cookies sid and sid_guard' },
          serviceToken: { type: 'http', scheme: 'bearer', description: 'a service token (bct_…) of the ingestion API, made in admin_center → System → Service tokens' },
        },
      },
    },
    transformObject: (documentObject) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the plugin types the document as 3.1 | 2.0; this one is 3.0
      'openapiObject' in documentObject ? (toOpenApi30(documentObject.openapiObject as Json) as any) : documentObject.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });
}
