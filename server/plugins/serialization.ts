import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Serialize = (data: unknown) => string;
type RouteSchema = { schema: unknown; method: string; url: string; httpStatus: string };
type BuildSerializer = (externalSchemas: unknown, serializerOpts: unknown) => (route: RouteSchema) => Serialize;

/**
 * Reply serializers compiled on a route's first reply, not when the route is registered:
 * Fastify builds a fast-json-stringify function for every reply schema at `ready` (about 350
 * routes, a large share of a start's CPU), though a process answers only some of them, and most
 * not in its first second. The same compiler Fastify uses by default (same options, same shared
 * schemas), only later; a schema it cannot compile fails on that first reply — and
 * serialization.test.ts compiles every route's reply schema, so it fails in CI first.
 */
export function lazySerializers(compiled?: Set<() => Serialize>): NonNullable<FastifyServerOptions['schemaController']> {
  // the compiler Fastify itself uses by default, resolved from Fastify's own dependencies
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const real = (fromFastify('@fastify/fast-json-stringify-compiler') as { SerializerSelector: () => BuildSerializer }).SerializerSelector();
  return {
    compilersFactory: {
      buildSerializer: (externalSchemas: unknown, serializerOpts: unknown) => {
        const factory = real(externalSchemas, serializerOpts);
        return (route: RouteSchema) => {
          let fn: Serialize | undefined;
          const compile = () => (fn ??= factory(route));
          compiled?.add(compile);
          return (data: unknown) => (fn ?? compile())(data);
        };
      },
    },
  } as NonNullable<FastifyServerOptions['schemaController']>;
}
