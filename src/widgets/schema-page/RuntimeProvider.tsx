import { setValidateLanguage } from '@formily/core';
import { useEffect, useMemo, type ReactNode } from 'react';
import { RuntimeContext, type Runtime } from '../../runtime/context.js';
import { DataClientBoundary } from '../../runtime/data-layer/use-data-client.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import { installSafeCompiler } from '../../runtime/expr/formily-compiler.js';
import { setTracing } from '../../runtime/expr/trace.js';
import { createSchemaLoader, type SchemaLoader } from '../../runtime/loader.js';
import type { Registry } from '../../runtime/registry.js';
import type { RuntimeUser } from '../../runtime/types.js';
import { asFirstDrawn } from '../list/filter-fold.js';
import { preloadSchemaWidgets } from '../preload.js';
import { createDefaultRegistry } from '../registry.js';

installSafeCompiler();

/** One default registry for every provider: widget code loaded for one page serves the next. */
const defaultRegistry: Registry = createDefaultRegistry();

/**
 * The widgets nearly every schema page draws (in this project's schemas: FormItem in 96 % of
 * the lists and every form, Input in 86 % / 70 %, Select in 68 % of the lists, EnumTag in 63 %
 * of the lists). Their code starts loading with the runtime itself, while the schema index
 * and the schema are fetched, instead of after the schema was checked; every other widget
 * loads when a schema names it.
 */
const COMMON_WIDGETS = ['FormItem', 'Input', 'Select', 'EnumTag'];
defaultRegistry.preload(COMMON_WIDGETS).catch(() => undefined); // a failure shows where the widget is drawn

export interface RuntimeProviderProps {
  env: RuntimeEnv;
  children: ReactNode;
  /** the signed-in user (`user` in expressions; column settings are saved per user id) */
  user?: RuntimeUser | null;
  /** override in tests */
  registry?: Registry;
  loader?: SchemaLoader;
  /** dev-mode schema/list polling interval (default 2000 ms) */
  pollMs?: number;
}

/**
 * Provides the schema runtime to SchemaPage: environment, loader (cache by hash), widget
 * registry, and a query client when none is provided above (the console provides one for all
 * its pages; tests and the bench pages get one per provider). In dev mode (env.devMode) it polls
 * schema/list so edited schema files re-render.
 */
export function RuntimeProvider({ env, children, user = null, registry, loader, pollMs = 2000 }: RuntimeProviderProps) {
  const reg = useMemo(() => registry ?? defaultRegistry, [registry]);
  const ld = useMemo(() => loader ?? createSchemaLoader(env.http, { texts: env.schemaTexts }), [loader, env.http, env.schemaTexts]);
  // the code of the widgets a schema names starts loading as soon as its JSON arrives, while it
  // is being checked (the page waits for it anyway: see useWidgetPreload)
  useEffect(() => ld.onReceived((_id, schema) => void preloadSchemaWidgets(reg, asFirstDrawn(schema))), [ld, reg]);
  useEffect(() => {
    setTracing(env.devMode);
    return env.devMode ? ld.startPolling(pollMs) : undefined;
  }, [ld, env.devMode, pollMs]);
  useMemo(() => setValidateLanguage(env.locale), [env.locale]);
  const value = useMemo<Runtime>(() => ({ env, loader: ld, registry: reg, user }), [env, ld, reg, user]);
  return (
    <DataClientBoundary>
      <RuntimeContext.Provider value={value}>{children}</RuntimeContext.Provider>
    </DataClientBoundary>
  );
}
