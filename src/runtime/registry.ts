/**
 * The widget registry contract: a typed value built by ONE function, passed by React
 * context (see ./context.ts), overridable in tests. A duplicate registration throws; an
 * unknown name either throws (`strict`, tests) or yields the `fallback` (the app draws a
 * visible error box naming the widget and the schema pointer).
 */
import type { ComponentType } from 'react';

/** Props every display widget receives. */
export interface DisplayProps<V = unknown> {
  value: V;
  record?: Record<string, unknown>;
  /** enum id when the column / item names one */
  enumId?: string;
  [prop: string]: unknown;
}

export type WidgetKind = 'input' | 'display' | 'layout' | 'decorator';

export interface WidgetEntry {
  name: string;
  kind: WidgetKind;
  component: ComponentType<never>;
}

export interface UnknownWidgetProps {
  name: string;
  pointer: string;
}

export interface Registry {
  readonly names: readonly string[];
  has(name: string): boolean;
  /** the component, or the fallback error box; throws in strict mode */
  get(name: string, pointer: string): ComponentType<Record<string, unknown>>;
  entry(name: string): WidgetEntry | undefined;
  /** name → component for Formily's SchemaField `components` (each name wrapped) */
  components(): Record<string, ComponentType<Record<string, unknown>>>;
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
}

/** Builds a registry from entries (later lists may not repeat a name: duplicates throw). */
export function createRegistry(entries: readonly WidgetEntry[], options: RegistryOptions): Registry {
  const map = new Map<string, WidgetEntry>();
  for (const e of entries) {
    if (map.has(e.name)) throw new Error(`widget "${e.name}" is registered twice`);
    map.set(e.name, e);
  }
  const strict = Boolean(options.strict);
  const get = (name: string, pointer: string) => {
    const e = map.get(name);
    if (e) return e.component as ComponentType<Record<string, unknown>>;
    if (strict) throw new UnknownWidgetError(name, pointer);
    return options.fallback({ name, pointer });
  };
  return {
    names: [...map.keys()],
    has: (name) => map.has(name),
    get,
    entry: (name) => map.get(name),
    components: () => Object.fromEntries([...map.values()].map((e) => [e.name, e.component as ComponentType<Record<string, unknown>>])),
    strict,
  };
}
