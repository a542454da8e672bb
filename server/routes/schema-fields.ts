/**
 * The field schemas served with a form (`fields` in `schema/detail`): the body JSON Schemas
 * of the routes the form submits to, read from the route declarations themselves, so the
 * client validates with exactly the bounds the server enforces (one source, no copy).
 */
import type { JsonSchema, RouteDef } from '../http/route.js';

interface Fields {
  properties: Record<string, JsonSchema>;
  required: string[];
}

let bodies: Promise<Map<string, JsonSchema>> | null = null;

/** `POST path` → body schema, for every route that declares one (built once, lazily). */
function routeBodies(): Promise<Map<string, JsonSchema>> {
  bodies ??= import('./index.js').then(async ({ allRoutes }) => {
    const map = new Map<string, JsonSchema>();
    for (const r of (await allRoutes()) as RouteDef[]) if (r.body) map.set(`${r.method} ${r.path}`, r.body);
    return map;
  });
  return bodies;
}

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

/** The merged body properties of the routes a form submits to; undefined for other kinds. */
export async function submitFieldsFor(doc: { kind?: unknown }): Promise<Fields | undefined> {
  if (doc.kind !== 'form') return undefined;
  const map = await routeBodies();
  const fields: Fields = { properties: {}, required: [] };
  for (const api of submitApis(doc)) {
    const body = map.get(api) as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
    for (const [name, s] of Object.entries(body?.properties ?? {})) fields.properties[name] ??= s;
    for (const r of body?.required ?? []) if (!fields.required.includes(r)) fields.required.push(r);
  }
  return Object.keys(fields.properties).length ? fields : undefined;
}
