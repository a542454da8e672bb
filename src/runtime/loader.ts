/**
 * The schema loader: `GET schema/list` (what the caller may open), `GET schema/detail?id=`
 * (reply { schema, hash, enums }), schemaVersion + ajv check (skipped when the server names the
 * fingerprint of this build's very check, SCHEMA_CHECK), cache by hash (memory + localStorage). In dev mode it polls schema/list and tells subscribers which ids changed.
 * Every failure becomes a SchemaLoadError naming id, JSON pointer and reason.
 *
 * A page resolves its route and its schema in one step (`resolveRoute`), and what is already
 * known answers synchronously (`peek`, `peekRoute`), so a page renders once per stage that
 * really waits for something: no intermediate "route found, schema loading" render, and no
 * spinner at all for a schema cached by hash. When the client must check for itself, the
 * validator chunks are fetched alongside schema/detail, not after it.
 */
import { SCHEMA_CHECK } from '../contract/schema-check.js';
import type { HttpPort, SchemaTexts } from './env.js';
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
import { asEnum, asPage, checkEnum, checkPageSchema, preloadValidators } from './validate.js';

export interface SchemaLoader {
  /** the schema index (cached until `refreshList`) */
  list(): Promise<SchemaListItem[]>;
  refreshList(): Promise<SchemaListItem[]>;
  load(id: string): Promise<LoadedSchema>;
  findByRoute(pathname: string): Promise<RouteHit | null>;
  /**
   * Route lookup and schema load in one step: null when no schema has this route; rejects with
   * a SchemaLoadError (id `schema/list` when the index itself failed).
   */
  resolveRoute(pathname: string): Promise<ResolvedRoute | null>;
  /** what resolveRoute would answer, when it is known without waiting (else undefined) */
  peekRoute(pathname: string): ResolvedRoute | null | undefined;
  /** the checked schema when it is cached for the current hash (else undefined) */
  peek(id: string): LoadedSchema | undefined;
  /** listener gets the ids whose hash changed (or that were added / removed) */
  subscribe(listener: (changed: string[]) => void): () => void;
  /**
   * listener gets a schema's JSON as soon as schema/detail answers, before it is checked (not
   * trusted: for work that can start early, such as fetching the code of the widgets it names)
   */
  onReceived(listener: (id: string, schema: unknown) => void): () => void;
  startPolling(intervalMs: number): () => void;
}

export interface ResolvedRoute {
  hit: RouteHit;
  loaded: LoadedSchema;
}

export interface LoaderOptions {
  storage?: Storage | null;
  cache?: SchemaCache;
  /**
   * The texts a schema names (the console loads its modules' texts per page): a schema is handed
   * out only once `ready` says they are in — `load` is awaited first, and `peek` answers nothing
   * for a cached schema whose texts are not loaded yet.
   */
  texts?: SchemaTexts;
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
  const receivers = new Set<(id: string, schema: unknown) => void>();
  let items: Promise<SchemaListItem[]> | null = null;
  /** the last index received (answers peek / peekRoute synchronously) */
  let listed: SchemaListItem[] | null = null;
  let known = new Map<string, string>();
  /** the server checks every schema it serves with the same validators as this build (see SCHEMA_CHECK) */
  let serverChecks = false;
  const inflight = new Map<string, Promise<LoadedSchema>>();
  const texts = options.texts;
  /** the schema, once the texts it names are loaded (a failed load hands it out anyway: keys beat no page) */
  const withTexts = async (loaded: LoadedSchema): Promise<LoadedSchema> => {
    if (texts && !texts.ready(loaded)) await texts.load(loaded).catch(() => undefined);
    return loaded;
  };

  const fetchList = async (): Promise<SchemaListItem[]> => {
    const reply = await http.get<SchemaListReply | SchemaListItem[]>('schema/list', undefined, { silent: true });
    const list = Array.isArray(reply) ? reply : (reply?.list ?? reply?.items ?? []);
    serverChecks = !Array.isArray(reply) && reply?.checked === SCHEMA_CHECK;
    const next = new Map(list.map((i) => [i.id, i.hash]));
    const changed = [...new Set([...known.keys(), ...next.keys()])].filter((id) => known.get(id) !== next.get(id));
    const first = known.size === 0;
    known = next;
    listed = list;
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
    // a check of our own needs this kind's validator chunk: fetch it while schema/detail is on its way
    if (!serverChecks) preloadValidators(item.kind);
    let reply: SchemaDetailReply;
    try {
      reply = await http.get<SchemaDetailReply>('schema/detail', { id }, { silent: true });
    } catch (e) {
      throw new SchemaLoadError([{ id, pointer: '/', reason: `schema/detail failed: ${e instanceof Error ? e.message : String(e)}` }]);
    }
    receivers.forEach((r) => {
      try {
        r(id, reply?.schema);
      } catch {
        /* an early hint only */
      }
    });
    const checked = reply?.checked === SCHEMA_CHECK;
    const problems = await checkPageSchema(id, reply?.schema, checked);
    const enums: Record<string, ReturnType<typeof asEnum>> = {};
    for (const [enumId, raw] of Object.entries(reply?.enums ?? {})) {
      problems.push(...(await checkEnum(enumId, raw, checked)));
      enums[enumId] = asEnum(raw);
    }
    if (problems.length) throw new SchemaLoadError(problems);
    const loaded: LoadedSchema = { id, hash: reply.hash ?? item.hash, schema: asPage(reply.schema), enums: enums as EnumMap, fields: reply.fields };
    cache.set(loaded);
    return loaded;
  };

  const load = (id: string): Promise<LoadedSchema> => {
    let p = inflight.get(id);
    if (!p) {
      p = fetchOne(id);
      inflight.set(id, p);
      p.catch(() => inflight.delete(id));
    }
    // the texts on every load, not once per schema: the language may have changed since
    return texts ? p.then(withTexts) : p;
  };

  const peek = (id: string): LoadedSchema | undefined => {
    const hash = known.get(id);
    const loaded = hash === undefined ? undefined : cache.get(id, hash);
    return loaded && (!texts || texts.ready(loaded)) ? loaded : undefined;
  };

  const resolveRoute = async (pathname: string): Promise<ResolvedRoute | null> => {
    let hit: RouteHit | null;
    try {
      hit = findSchemaByRoute(await list(), pathname);
    } catch (e) {
      throw new SchemaLoadError([{ id: 'schema/list', pointer: '/', reason: e instanceof Error ? e.message : String(e) }]);
    }
    if (!hit) return null;
    try {
      return { hit, loaded: await load(hit.item.id) };
    } catch (e) {
      if (e instanceof SchemaLoadError) throw e;
      throw new SchemaLoadError([{ id: hit.item.id, pointer: '/', reason: e instanceof Error ? e.message : String(e) }]);
    }
  };

  return {
    list,
    refreshList,
    load,
    peek,
    resolveRoute,
    peekRoute(pathname) {
      if (!listed) return undefined;
      const hit = findSchemaByRoute(listed, pathname);
      if (!hit) return null;
      const loaded = peek(hit.item.id);
      return loaded ? { hit, loaded } : undefined;
    },
    async findByRoute(pathname) {
      return findSchemaByRoute(await list(), pathname);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onReceived(listener) {
      receivers.add(listener);
      return () => receivers.delete(listener);
    },
    startPolling(intervalMs) {
      const timer = setInterval(() => {
        refreshList().catch(() => undefined);
      }, intervalMs);
      return () => clearInterval(timer);
    },
  };
}
