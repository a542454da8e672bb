/**
 * Turns a TypeBox type into a standalone JSON Schema document: recursive types (TypeBox
 * `$id` + `$ref`) are hoisted into `$defs` with local refs, so each file works on its own
 * in ajv and in editors, and several can share one ajv instance.
 */
import type { TSchema } from '@sinclair/typebox';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function toJsonSchema(type: TSchema, title: string): Record<string, Json> {
  const defs: Record<string, Json> = {};
  const ids = new Set<string>();
  const collect = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(collect);
    if (n && typeof n === 'object') {
      const o = n as Record<string, unknown>;
      if (typeof o.$id === 'string') ids.add(o.$id);
      Object.values(o).forEach(collect);
    }
  };
  collect(type);
  const walk = (n: unknown): Json => {
    if (Array.isArray(n)) return n.map(walk);
    if (n && typeof n === 'object') {
      const o = n as Record<string, unknown>;
      if (typeof o.$ref === 'string' && ids.has(o.$ref)) return { $ref: `#/$defs/${o.$ref}` };
      if (typeof o.$id === 'string') {
        const id = o.$id;
        if (!(id in defs)) {
          defs[id] = {};
          const { $id: _drop, ...rest } = o;
          defs[id] = walk(rest);
        }
        return { $ref: `#/$defs/${id}` };
      }
      const out: Record<string, Json> = {};
      for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = walk(o[k]);
      return out;
    }
    return n as Json;
  };
  const body = walk(JSON.parse(JSON.stringify(type))) as Record<string, Json>;
  const sortedDefs: Record<string, Json> = {};
  for (const k of Object.keys(defs).sort()) sortedDefs[k] = defs[k];
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title,
    ...body,
    ...(Object.keys(sortedDefs).length ? { $defs: sortedDefs } : {}),
  };
}
