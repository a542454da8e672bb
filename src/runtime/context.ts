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
