/** Filter values ⇄ URL query strings, typed by the filter schema (number / array / boolean / string). */
import type { FormilyNode, FormilyObject } from './types.js';

export interface FilterField {
  name: string;
  type: string;
}

export function filterFields(schema: FormilyObject | undefined): FilterField[] {
  const out: FilterField[] = [];
  const walk = (props: Record<string, FormilyNode> | undefined) => {
    for (const [name, node] of Object.entries(props ?? {})) {
      if (node.type === 'void') walk(node.properties);
      else out.push({ name, type: node.type ?? 'string' });
    }
  };
  walk(schema?.properties);
  return out;
}

export function decodeFilters(fields: FilterField[], query: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = query[f.name];
    if (raw === undefined || raw === '') continue;
    if (f.type === 'number') {
      const n = Number(raw);
      if (!Number.isNaN(n)) out[f.name] = n;
    } else if (f.type === 'boolean') out[f.name] = raw === 'true';
    else if (f.type === 'array' || f.type === 'object') {
      try {
        out[f.name] = JSON.parse(raw);
      } catch {
        /* ignore a hand-edited bad value */
      }
    } else out[f.name] = raw;
  }
  return out;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

export function encodeFilters(fields: FilterField[], values: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const f of fields) {
    const v = values[f.name];
    out[f.name] = isEmpty(v) ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}

/** Scalar filter values go to the API as they are; arrays / objects need an explicit `data.params` mapping. */
export function scalarFilters(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (!isEmpty(v) && typeof v !== 'object') out[k] = v;
  return out;
}
