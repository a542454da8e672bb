/**
 * Test support (Node side of jsdom tests): reads schema files from disk and serves them the
 * way the server does (`schema/list`, `schema/detail`), plus recorded API fixtures.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpPort } from '../../runtime/env.js';
import type { SchemaListItem } from '../../runtime/types.js';
// test support only (Node): the server's one expansion step, so tests see what the server serves
import { readExpandedSchema } from '../../../server/schemas/expand.js';

export type Doc = Record<string, unknown>;

/** Every JSON file under `dir`; with `schemasDir`, each as the server serves it (fragments resolved, defaults filled in). */
export function readJsonTree(dir: string, schemasDir?: string): Doc[] {
  const out: Doc[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names.sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...readJsonTree(p, schemasDir));
    else if (n.endsWith('.json')) out.push(schemasDir ? readExpandedSchema(p, schemasDir) : (JSON.parse(readFileSync(p, 'utf8')) as Doc));
  }
  return out;
}

export interface SchemaSet {
  pages: Doc[];
  enums: Record<string, Doc>;
}

export function readSchemaSet(root: string): SchemaSet {
  const pages = [...readJsonTree(join(root, 'pages'), root), ...readJsonTree(join(root, 'forms'), root)];
  const enums = Object.fromEntries(readJsonTree(join(root, 'enums')).map((e) => [String(e.id), e]));
  return { pages, enums };
}

/** Enum ids a document refers to (`enum` on columns / items, `x-enum` in Formily schemas). */
export function enumRefs(doc: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(doc)) doc.forEach((d) => enumRefs(d, out));
  else if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) {
      if ((k === 'enum' || k === 'x-enum') && typeof v === 'string') out.add(v);
      else enumRefs(v, out);
    }
  }
  return out;
}

export function routesOf(doc: Doc): string[] {
  if (doc.kind === 'form') {
    const modes = (doc.modes ?? {}) as Record<string, { route?: string }>;
    return Object.values(modes)
      .map((m) => m.route)
      .filter((r): r is string => Boolean(r));
  }
  return (doc.routes as string[] | undefined) ?? [];
}

export type Fixture = (params: Record<string, unknown>) => unknown;

export interface FakeHttp extends HttpPort {
  calls: Array<{ method: string; path: string; data: unknown }>;
}

/** An HttpPort serving schemas (as the server does) and fixtures keyed "METHOD path". */
export function createFakeHttp(
  set: SchemaSet,
  fixtures: Record<string, Fixture | unknown>,
  fallback?: (method: string, path: string, data: Record<string, unknown>) => unknown,
): FakeHttp {
  const calls: FakeHttp['calls'] = [];
  const hashOf = (d: Doc) => `h${d.id}-${d.version}`;
  const answer = async (method: string, path: string, data: Record<string, unknown>) => {
    calls.push({ method, path, data });
    if (method === 'GET' && path === 'schema/list') {
      const list: SchemaListItem[] = set.pages.map((d) => ({
        id: String(d.id),
        version: Number(d.version),
        hash: hashOf(d),
        kind: d.kind as SchemaListItem['kind'],
        routes: routesOf(d),
        module: String(d.module ?? ''),
        permission: (d.permission as string | undefined) ?? null,
      }));
      return { list };
    }
    if (method === 'GET' && path === 'schema/detail') {
      const doc = set.pages.find((d) => d.id === data.id);
      if (!doc) throw Object.assign(new Error('not found'), { code: 40004 });
      const enums = Object.fromEntries([...enumRefs(doc)].filter((e) => set.enums[e]).map((e) => [e, set.enums[e]]));
      return { schema: doc, hash: hashOf(doc), enums };
    }
    const f = fixtures[`${method} ${path}`];
    if (f === undefined && fallback) return fallback(method, path, data);
    if (f === undefined) throw Object.assign(new Error(`no fixture for ${method} ${path}`), { code: 40004 });
    return typeof f === 'function' ? (f as Fixture)(data) : structuredClone(f);
  };
  return {
    calls,
    get: <T,>(path: string, params?: Record<string, unknown>) => answer('GET', path, params ?? {}) as Promise<T>,
    post: <T,>(path: string, body?: unknown) => answer('POST', path, (body ?? {}) as Record<string, unknown>) as Promise<T>,
    download: async (path: string, body?: unknown) => {
      await answer('POST', path, (body ?? {}) as Record<string, unknown>);
    },
    upload: <T,>(path: string, form: FormData) => answer('POST', path, Object.fromEntries(form.entries())) as Promise<T>,
  };
}
