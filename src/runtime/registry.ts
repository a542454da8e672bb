/**
 * The widget registry contract: a typed value built by ONE function, passed by React
 * context (see ./context.ts), overridable in tests. A duplicate registration throws; an
 * unknown name either throws (`strict`, tests) or yields the `fallback` (the app draws a
 * visible error box naming the widget and the schema pointer).
 *
 * An entry holds its component (eager) or a `load` function (lazy: its code is a separate
 * chunk). `preload(names)` loads the lazy widgets a schema names before the page renders, so
 * nothing suspends; a lazy widget rendered before its code arrived shows a light placeholder
 * inside its own Suspense boundary (never a crash) and then the widget, without remounting.
 */
import { createElement, Suspense, useRef, type ComponentType } from 'react';

/** Props every display widget receives. */
export interface DisplayProps<V = unknown> {
  value: V;
  record?: Record<string, unknown>;
  /** enum id when the column / item names one */
  enumId?: string;
  [prop: string]: unknown;
}

export type WidgetKind = 'input' | 'display' | 'layout' | 'decorator';

type AnyComponent = ComponentType<never>;

export type WidgetEntry =
  | { name: string; kind: WidgetKind; component: AnyComponent; load?: undefined }
  | { name: string; kind: WidgetKind; load: () => Promise<AnyComponent>; component?: undefined };

export interface UnknownWidgetProps {
  name: string;
  pointer: string;
}

export interface Registry {
  readonly names: readonly string[];
  has(name: string): boolean;
  /** the component (a stable wrapper for lazy entries), or the fallback error box; throws in strict mode */
  get(name: string, pointer: string): ComponentType<Record<string, unknown>>;
  entry(name: string): WidgetEntry | undefined;
  /** name → component for Formily's SchemaField `components` (each name wrapped) */
  components(): Record<string, ComponentType<Record<string, unknown>>>;
  /**
   * Loads the code of the lazy widgets among `names` (unknown and eager names are skipped);
   * resolves when all are ready, rejects if one failed to load.
   */
  preload(names: Iterable<string>): Promise<void>;
  /** true when `name` renders without suspending (eager, or lazy and loaded) */
  isLoaded(name: string): boolean;
  /**
   * The widget's own component once its code is here (eager, or lazy and loaded), without the
   * lazy wrapper; undefined otherwise. For callers that compile a schema once (list columns,
   * Formily's components) and so may reach a widget's statics (`cell`, `column`).
   */
  loaded(name: string): ComponentType<Record<string, unknown>> | undefined;
  readonly strict: boolean;
}

export class UnknownWidgetError extends Error {
  constructor(
    readonly widget: string,
    readonly pointer: string,
  ) {
    super(`unknown widget "${widget}" at ${pointer || '/'}`);
    this.name = 'UnknownWidgetError';
  }
}

export interface RegistryOptions {
  /** throw on unknown names (tests) instead of drawing the fallback */
  strict?: boolean;
  fallback: (props: UnknownWidgetProps) => ComponentType<Record<string, unknown>>;
  /** drawn while a lazy widget's code loads (default: an empty inline span) */
  loading?: ComponentType<{ name: string }>;
}

type Props = Record<string, unknown>;

function DefaultLoading({ name }: { name: string }) {
  return createElement('span', { className: 'bo-widget-loading', 'data-widget-loading': name, 'aria-busy': true });
}

/** Builds a registry from entries (later lists may not repeat a name: duplicates throw). */
export function createRegistry(entries: readonly WidgetEntry[], options: RegistryOptions): Registry {
  const map = new Map<string, WidgetEntry>();
  for (const e of entries) {
    if (map.has(e.name)) throw new Error(`widget "${e.name}" is registered twice`);
    map.set(e.name, e);
  }
  const strict = Boolean(options.strict);
  const Loading = options.loading ?? DefaultLoading;
  /** components ready to render, by name (eager ones from the start) */
  const ready = new Map<string, ComponentType<Props>>();
  const loading = new Map<string, Promise<ComponentType<Props>>>();
  const failed = new Map<string, unknown>();
  const wrappers = new Map<string, ComponentType<Props>>();
  for (const e of map.values()) if (e.component) ready.set(e.name, e.component as ComponentType<Props>);

  const load = (name: string): Promise<ComponentType<Props>> => {
    const done = ready.get(name);
    if (done) return Promise.resolve(done);
    let p = loading.get(name);
    if (!p) {
      const e = map.get(name);
      if (!e?.load) return Promise.reject(new Error(`widget "${name}" has no loader`));
      failed.delete(name);
      p = e.load().then(
        (c) => {
          if (!c) throw new Error(`widget "${name}" loaded no component`);
          ready.set(name, c as ComponentType<Props>);
          loading.delete(name);
          return c as ComponentType<Props>;
        },
        (err: unknown) => {
          // the next render or preload tries again
          failed.set(name, err);
          loading.delete(name);
          throw err;
        },
      );
      loading.set(name, p);
    }
    return p;
  };

  /** One stable component per lazy name: renders the widget directly once its code is here. */
  const wrapperOf = (name: string): ComponentType<Props> => {
    const known = wrappers.get(name);
    if (known) return known;
    // suspends until the code is here (a load error goes to the nearest error boundary)
    function Pending(props: Props) {
      const C = ready.get(name);
      if (C) return createElement(C, props);
      const err = failed.get(name);
      if (err) {
        failed.delete(name);
        throw err;
      }
      throw load(name);
    }
    function LazyWidget(props: Props) {
      // decided once per mount, so an instance never swaps its subtree (no remount, no lost state)
      const direct = useRef(ready.has(name)).current;
      if (direct) return createElement(ready.get(name)!, props);
      return createElement(Suspense, { fallback: createElement(Loading, { name }) }, createElement(Pending, props));
    }
    LazyWidget.displayName = `Widget(${name})`;
    wrappers.set(name, LazyWidget);
    return LazyWidget;
  };

  const componentOf = (e: WidgetEntry): ComponentType<Props> => {
    if (e.component) return e.component as ComponentType<Props>;
    if (!ready.has(e.name)) void load(e.name).catch(() => undefined); // start early; errors surface on render
    return wrapperOf(e.name);
  };

  const get = (name: string, pointer: string) => {
    const e = map.get(name);
    if (e) return componentOf(e);
    if (strict) throw new UnknownWidgetError(name, pointer);
    return options.fallback({ name, pointer });
  };

  return {
    names: [...map.keys()],
    has: (name) => map.has(name),
    get,
    entry: (name) => map.get(name),
    components: () =>
      Object.fromEntries(
        [...map.values()].map((e) => [e.name, e.component ? (e.component as ComponentType<Props>) : wrapperOf(e.name)]),
      ),
    preload: async (names) => {
      const wanted = [...new Set(names)].filter((n) => map.get(n)?.load && !ready.has(n));
      await Promise.all(wanted.map(load));
    },
    isLoaded: (name) => ready.has(name),
    loaded: (name) => ready.get(name),
    strict,
  };
}
