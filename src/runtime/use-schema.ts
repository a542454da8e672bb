/**
 * Schemas for React: by id (`useSchema`) or by route (`useRouteSchema`: route lookup and schema
 * load in one step). What the loader already knows is answered during render (no spinner and
 * no extra commit for a schema cached by hash); otherwise there is exactly one state change,
 * when the schema is ready or has failed. Both reload when the schema's hash changes (dev
 * polling, SCHEMA_WATCH), keeping the current page on screen until the new one is checked.
 */
import { useEffect, useState } from 'react';
import { useRuntime } from './context.js';
import type { ResolvedRoute, SchemaLoader } from './loader.js';
import type { RouteHit } from './routes.js';
import { SchemaLoadError, type LoadedSchema, type SchemaProblem } from './types.js';

export type SchemaState =
  | { status: 'loading' }
  | { status: 'ready'; loaded: LoadedSchema }
  | { status: 'error'; problems: SchemaProblem[] };

export function toProblems(id: string, e: unknown): SchemaProblem[] {
  if (e instanceof SchemaLoadError) return e.problems;
  return [{ id, pointer: '/', reason: e instanceof Error ? e.message : String(e) }];
}

const LOADING = { status: 'loading' } as const;

/** A reload that found what is already shown keeps the state object (no commit). */
function same(a: SchemaState | RouteSchemaState, b: SchemaState | RouteSchemaState): boolean {
  if (a.status === 'none' && b.status === 'none') return true;
  if (a.status !== 'ready' || b.status !== 'ready' || a.loaded !== b.loaded) return false;
  if (!('hit' in a) || !('hit' in b)) return true;
  return a.hit.route === b.hit.route && JSON.stringify(a.hit.params) === JSON.stringify(b.hit.params);
}

function initialById(loader: SchemaLoader, id: string | null): SchemaState {
  const loaded = id ? loader.peek(id) : undefined;
  return loaded ? { status: 'ready', loaded } : LOADING;
}

export function useSchema(id: string | null): SchemaState {
  const { loader } = useRuntime();
  const [current, setCurrent] = useState<{ loader: SchemaLoader; id: string | null; state: SchemaState }>(() => ({
    loader,
    id,
    state: initialById(loader, id),
  }));
  // another id (or loader): derive the new state during render instead of an effect's extra commit
  let state = current.state;
  if (current.id !== id || current.loader !== loader) {
    state = initialById(loader, id);
    setCurrent({ loader, id, state });
  }
  const ready = state.status === 'ready' ? state.loaded : null;
  useEffect(() => {
    if (!id) return;
    let live = true;
    const set = (next: SchemaState) => live && setCurrent((c) => (c.id === id && c.loader === loader && same(c.state, next) ? c : { loader, id, state: next }));
    const fetch = () =>
      loader.load(id).then(
        (loaded) => set({ status: 'ready', loaded }),
        (e: unknown) => set({ status: 'error', problems: toProblems(id, e) }),
      );
    if (!ready) void fetch();
    const off = loader.subscribe((changed) => {
      if (changed.includes(id)) void fetch();
    });
    return () => {
      live = false;
      off();
    };
    // `ready` only decides whether the first fetch is needed
  }, [loader, id]); // eslint-disable-line react-hooks/exhaustive-deps
  return state;
}

export type RouteSchemaState =
  | { status: 'loading' }
  | { status: 'ready'; hit: RouteHit; loaded: LoadedSchema }
  | { status: 'none' }
  | { status: 'error'; problems: SchemaProblem[] };

function fromResolved(r: ResolvedRoute | null | undefined): RouteSchemaState {
  if (r === undefined) return LOADING;
  if (r === null) return { status: 'none' };
  return { status: 'ready', hit: r.hit, loaded: r.loaded };
}

function initialByRoute(loader: SchemaLoader, path: string): RouteSchemaState {
  const known = loader.peekRoute(path);
  // not known yet: start the lookup now, while the first (spinner) commit is being made
  if (known === undefined) loader.resolveRoute(path).catch(() => undefined);
  return fromResolved(known);
}

/**
 * The schema whose route matches `path`, looked up and loaded in one step. `none` when no
 * schema has this route; `error` names the file / id, JSON pointer and reason.
 */
export function useRouteSchema(path: string): RouteSchemaState {
  const { loader } = useRuntime();
  const [current, setCurrent] = useState<{ loader: SchemaLoader; path: string; state: RouteSchemaState }>(() => ({
    loader,
    path,
    state: initialByRoute(loader, path),
  }));
  let state = current.state;
  if (current.path !== path || current.loader !== loader) {
    state = initialByRoute(loader, path);
    setCurrent({ loader, path, state });
  }
  const settled = state.status !== 'loading';
  useEffect(() => {
    let live = true;
    const set = (next: RouteSchemaState) =>
      live && setCurrent((c) => (c.path === path && c.loader === loader && same(c.state, next) ? c : { loader, path, state: next }));
    const fetch = () =>
      loader.resolveRoute(path).then(
        (r) => set(fromResolved(r)),
        (e: unknown) => set({ status: 'error', problems: toProblems('schema/list', e) }),
      );
    if (!settled) void fetch();
    // any schema change may concern this path (its schema edited, fixed, re-routed or added);
    // what did not change resolves from the caches to the same state and commits nothing
    const off = loader.subscribe(() => void fetch());
    return () => {
      live = false;
      off();
    };
    // `settled` only decides whether the first fetch is needed
  }, [loader, path]); // eslint-disable-line react-hooks/exhaustive-deps
  return state;
}
