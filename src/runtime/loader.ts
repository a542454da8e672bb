/**
 * The schema loader: `GET schema/list` (what the caller may open), `GET schema/detail?id=`
 * (reply { schema, hash, enums }), schemaVersion + ajv check, cache by hash (memory +
 * localStorage). In dev mode it polls schema/list and tells subscribers which ids changed.
 * Every failure becomes a SchemaLoadError naming id, JSON pointer and reason.
 */
import type { HttpPort } from './env.js';
import { createSchemaCache, type SchemaCache } from './cache.js';
import { findSchemaByRoute, type RouteHit } from './routes.js';
import {
  SchemaLoadError,
  type EnumMap,
  type LoadedSchema,
  type SchemaDetailReply,
  type SchemaListItem,
  type SchemaListReply,
} from './types.js';
import { asEnum, asPage, checkEnum, checkPageSchema } from './validate.js';

export interface SchemaLoader {
  /** the schema index (cached until `refreshList`) */
  list(): Promise<SchemaListItem[]>;
  refreshList(): Promise<SchemaListItem[]>;
  load(id: string): Promise<LoadedSchema>;
  findByRoute(pathname: string): Promise<RouteHit | null>;
  /** listener gets the ids whose hash changed (or that were added / removed) */
  subscribe(listener: (changed: string[]) => void): () => void;
  startPolling(intervalMs: number): () => void;
}

export interface LoaderOptions {
  storage?: Storage | null;
  cache?: SchemaCache;
}

const defaultStorage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

export function createSchemaLoader(http: HttpPort, options: LoaderOptions = {}): SchemaLoader {
  const cache = options.cache ?? createSchemaCache(options.storage === undefined ? defaultStorage() : options.storage);
  const listeners = new Set<(changed: string[]) => void>();
  let items: Promise<SchemaListItem[]> | null = null;
  let known = new Map<string, string>();
  const inflight = new Map<string, Promise<LoadedSchema>>();

  const fetchList = async (): Promise<SchemaListItem[]> => {
    const reply = await http.get<SchemaListReply | SchemaListItem[]>('schema/list', undefined, { silent: true });
    const list = Array.isArray(reply) ? reply : (reply?.list ?? reply?.items ?? []);
    const next = new Map(list.map((i) => [i.id, i.hash]));
    const changed = [...new Set([...known.keys(), ...next.keys()])].filter((id) => known.get(id) !== next.get(id));
    const first = known.size === 0;
    known = next;
    if (!first && changed.length) {
      changed.forEach((id) => inflight.delete(id));
      listeners.forEach((l) => l(changed));
    }
    return list;
  };

  const list = () => {
    items ??= fetchList().catch((e) => {
      items = null;
      throw e;
    });
    return items;
  };

  const refreshList = () => {
    items = fetchList();
    return items;
  };

  const fetchOne = async (id: string): Promise<LoadedSchema> => {
    const item = (await list()).find((i) => i.id === id);
    if (!item) throw new SchemaLoadError([{ id, pointer: '/', reason: 'schema not found or not permitted' }]);
    const hit = cache.get(id, item.hash);
    if (hit) return hit;
    let reply: SchemaDetailReply;
    try {
      reply = await http.get<SchemaDetailReply>('schema/detail', { id }, { silent: true });
    } catch (e) {
      throw new SchemaLoadError([{ id, pointer: '/', reason: `schema/detail failed: ${e instanceof Error ? e.message : String(e)}` }]);
    }
    const problems = await checkPageSchema(id, reply?.schema);
    const enums: Record<string, ReturnType<typeof asEnum>> = {};
    for (const [enumId, raw] of Object.entries(reply?.enums ?? {})) {
      problems.push(...(await checkEnum(enumId, raw)));
      enums[enumId] = asEnum(raw);
    }
    if (problems.length) throw new SchemaLoadError(problems);
    const loaded: LoadedSchema = { id, hash: reply.hash ?? item.hash, schema: asPage(reply.schema), enums: enums as EnumMap, fields: reply.fields };
    cache.set(loaded);
    return loaded;
  };

  return {
    list,
    refreshList,
    load(id) {
      let p = inflight.get(id);
      if (!p) {
        p = fetchOne(id);
        inflight.set(id, p);
        p.catch(() => inflight.delete(id));
      }
      return p;
    },
    async findByRoute(pathname) {
      return findSchemaByRoute(await list(), pathname);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    startPolling(intervalMs) {
      const timer = setInterval(() => {
        refreshList().catch(() => undefined);
      }, intervalMs);
      return () => clearInterval(timer);
    },
  };
}
