/**
 * The field schemas served with a form (`fields` in `schema/detail`): the body JSON Schemas
 * of the routes the form submits to, read from the route declarations themselves, so the
 * client validates with exactly the bounds the server enforces (one source, no copy).
 */
import type { FastifyInstance } from 'fastify';
import type { JsonSchema, RouteDef } from '../http/route.js';

interface Fields {
  properties: Record<string, JsonSchema>;
  required: string[];
}

type RouteBodies = ReadonlyMap<string, JsonSchema>;

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD path` → body schema of every route the app serves (attachRouteBodies) */
    routeBodies: RouteBodies;
  }
}

/**
 * Gives the app the body schemas of the routes it serves (`METHOD path` → body schema), which
 * `submitFieldsFor` reads through the request's server. buildApp calls it with its route list:
 * the table is handed in rather than imported, so this file (and schema.ts, itself one of the
 * routes) never imports the route list (server/routes/index.ts) that imports them.
 */
export function attachRouteBodies(app: FastifyInstance, routes: readonly RouteDef[]): void {
  const map = new Map<string, JsonSchema>();
  for (const r of routes) if (r.body) map.set(`${r.method} ${r.path}`, r.body);
  app.decorate('routeBodies', map);
}

const NO_BODIES: RouteBodies = new Map();

/** Every `submit.api` string anywhere in a schema document. */
export function submitApis(doc: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(doc)) doc.forEach((d) => submitApis(d, out));
  else if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) {
      if (k === 'submit' && v && typeof v === 'object' && typeof (v as { api?: unknown }).api === 'string') {
        out.add((v as { api: string }).api.trim().replace(/\s+/g, ' '));
      }
      submitApis(v, out);
    }
  }
  return out;
}

/**
 * The merged body properties of the routes a form submits to; undefined for other kinds.
 * `app` is the serving instance (`ctx.req.server`); one without a route table (a bare test
 * app) serves no fields.
 */
export function submitFieldsFor(doc: { kind?: unknown }, app: FastifyInstance): Fields | undefined {
  if (doc.kind !== 'form') return undefined;
  const map = app.hasDecorator('routeBodies') ? app.routeBodies : NO_BODIES;
  const fields: Fields = { properties: {}, required: [] };
  for (const api of submitApis(doc)) {
    const body = map.get(api) as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
    for (const [name, s] of Object.entries(body?.properties ?? {})) fields.properties[name] ??= s;
    for (const r of body?.required ?? []) if (!fields.required.includes(r)) fields.required.push(r);
  }
  return Object.keys(fields.properties).length ? fields : undefined;
}
