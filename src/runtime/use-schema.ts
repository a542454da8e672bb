/**
 * Schemas for React: by id (`useSchema`) or by route (`useRouteSchema`: route lookup and schema
 * load in one step). What the loader already knows is answered during render (no spinner and
 * no extra commit for a schema cached by hash); otherwise there is exactly one state change,
 * when the schema is ready or has failed. Both reload when the schema's hash changes (dev
 * polling, SCHEMA_WATCH), keeping the current page on screen until the new one is checked.
 *
 * `prepare` is what a schema needs before it can render in one go (the widgets layer passes
 * "load the code of the lazy widgets it names"): it is part of the same step, so the page
 * never renders half-ready and then again.
 */
import { useEffect, useRef, useState } from 'react';
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

/**
 * Work a checked schema needs before it renders: a promise to wait for (never rejecting), or
 * undefined when nothing is left to do (then a cached schema renders at once).
 */
export type PrepareSchema = (loaded: LoadedSchema) => Promise<unknown> | undefined;

const LOADING = { status: 'loading' } as const;

/** Runs `prepare` (if any) before handing the result on; a failing prepare does not block the page. */
const after = <T>(prepare: PrepareSchema | undefined, loaded: LoadedSchema | undefined, value: T): Promise<T> | T => {
  const p = loaded && prepare?.(loaded);
  return p ? p.then(() => value, () => value) : value;
};

/** The hooks read the latest `prepare` without making it an effect dependency. */
function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}

/** A reload that found what is already shown keeps the state object (no commit). */
function same(a: SchemaState | RouteSchemaState, b: SchemaState | RouteSchemaState): boolean {
  if (a.status === 'none' && b.status === 'none') return true;
  if (a.status !== 'ready' || b.status !== 'ready' || a.loaded !== b.loaded) return false;
  if (!('hit' in a) || !('hit' in b)) return true;
  return a.hit.route === b.hit.route && JSON.stringify(a.hit.params) === JSON.stringify(b.hit.params);
}

/**
 * State that belongs to one (loader, key): when either changes, it is derived again during
 * render (no effect, so no extra commit). `set` replaces it unless `same` finds nothing new,
 * in which case the state object is kept and nothing commits.
 */
function useKeyedState<K, S extends SchemaState | RouteSchemaState>(
  loader: SchemaLoader,
  key: K,
  init: () => S,
): [S, (next: S) => void] {
  const [current, setCurrent] = useState<{ loader: SchemaLoader; key: K; state: S }>(() => ({ loader, key, state: init() }));
  let state = current.state;
  if (current.key !== key || current.loader !== loader) {
    state = init();
    setCurrent({ loader, key, state });
  }
  const set = (next: S) => setCurrent((c) => (c.key === key && c.loader === loader && same(c.state, next) ? c : { loader, key, state: next }));
  return [state, set];
}

function initialById(loader: SchemaLoader, id: string | null, prepare?: PrepareSchema): SchemaState {
  const loaded = id ? loader.peek(id) : undefined;
  return loaded && !prepare?.(loaded) ? { status: 'ready', loaded } : LOADING;
}

export function useSchema(id: string | null, prepare?: PrepareSchema): SchemaState {
  const { loader } = useRuntime();
  const prep = useLatest(prepare);
  const [state, setState] = useKeyedState<string | null, SchemaState>(loader, id, () => initialById(loader, id, prepare));
  const ready = state.status === 'ready' ? state.loaded : null;
  useEffect(() => {
    if (!id) return;
    let live = true;
    const set = (next: SchemaState) => live && setState(next);
    const fetch = () =>
      loader
        .load(id)
        .then((loaded) => after(prep.current, loaded, loaded))
        .then(
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
  }, [loader, id]); // eslint-disable-line react-hooks/exhaustive-deps -- `ready` only decides whether the first fetch is needed
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

function initialByRoute(loader: SchemaLoader, path: string, prepare?: PrepareSchema): RouteSchemaState {
  const known = loader.peekRoute(path);
  // not known yet: start the lookup now, while the first (spinner) commit is being made
  if (known === undefined) loader.resolveRoute(path).catch(() => undefined);
  // known but not ready to render (its widgets' code is still loading)
  if (known && prepare?.(known.loaded)) return LOADING;
  return fromResolved(known);
}

/**
 * The schema whose route matches `path`, looked up and loaded in one step. `none` when no
 * schema has this route; `error` names the file / id, JSON pointer and reason.
 */
export function useRouteSchema(path: string, prepare?: PrepareSchema): RouteSchemaState {
  const { loader } = useRuntime();
  const prep = useLatest(prepare);
  const [state, setState] = useKeyedState<string, RouteSchemaState>(loader, path, () => initialByRoute(loader, path, prepare));
  const settled = state.status !== 'loading';
  useEffect(() => {
    let live = true;
    const set = (next: RouteSchemaState) => live && setState(next);
    const fetch = () =>
      loader
        .resolveRoute(path)
        .then((r) => after(prep.current, r?.loaded, r))
        .then(
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
  }, [loader, path]); // eslint-disable-line react-hooks/exhaustive-deps -- `settled` only decides whether the first fetch is needed
  return state;
}
