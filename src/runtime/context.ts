/** The runtime value passed by React context: environment, schema loader, widget registry, user. */
import { createContext, useContext } from 'react';
import type { RuntimeEnv } from './env.js';
import type { SchemaLoader } from './loader.js';
import type { Registry } from './registry.js';
import type { EnumMap, ResourceFields, RuntimeUser } from './types.js';

export interface Runtime {
  env: RuntimeEnv;
  loader: SchemaLoader;
  registry: Registry;
  user: RuntimeUser | null;
}

export const RuntimeContext = createContext<Runtime | null>(null);

export function useRuntime(): Runtime {
  const rt = useContext(RuntimeContext);
  if (!rt) throw new Error('schema runtime used outside <RuntimeProvider>');
  return rt;
}

/** What widgets inside one schema see: its id and the enums it references. */
export interface SchemaScope {
  schemaId: string;
  enums: EnumMap;
  /** the server's field schemas for the resource a form submits to */
  fields?: ResourceFields;
}

export const SchemaScopeContext = createContext<SchemaScope>({ schemaId: '', enums: {} });

/**
 * What a detail page tells the lists it embeds: how many times its record loaded (a list reloads
 * quietly each time it grows) and whether the page has a live refresh of its own (`refreshWhile`:
 * then it drives the reloads and a list's `refreshWhile.watch` is not asked).
 */
export interface ParentReload {
  loads: number;
  live: boolean;
}

export const ParentReloadContext = createContext<ParentReload | null>(null);
