/**
 * The console's i18next instance, and what loads the modules' texts a page needs before it draws:
 * a schema page's (the schema loader asks `schemaTexts`) and a bespoke screen's (`withTexts`).
 */
import type { ComponentType } from 'react';
import type { SchemaTexts } from '../runtime/env.js';
import { createI18n, hasNamespaces, loadNamespaces, namespacesOf, noteNamespaces } from './i18n.js';
import { settingsStore, type Locale } from './settings/store.js';

export const consoleI18n = createI18n(settingsStore.get().locale);

const lng = () => consoleI18n.language as Locale;
type Loaded = Parameters<SchemaTexts['ready']>[0];
const named = new WeakMap<Loaded, string[]>();
const namespacesOfSchema = (loaded: Loaded) => {
  let ns = named.get(loaded);
  // the schema runtime's own texts (`runtime`: its widgets, buttons, messages) with the page's
  if (!ns) named.set(loaded, (ns = ['runtime', ...namespacesOf([loaded.schema, loaded.enums, loaded.fields])]));
  return ns;
};

/** The schema loader's texts port: a schema is handed out once the namespaces its keys name are in. */
export const schemaTexts: SchemaTexts = {
  ready: (loaded) => {
    const ns = namespacesOfSchema(loaded);
    // a page drawn in English still needs its Chinese texts after a switch to Chinese
    noteNamespaces(consoleI18n, ns);
    return hasNamespaces(consoleI18n, lng(), ns);
  },
  load: (loaded) => loadNamespaces(consoleI18n, lng(), namespacesOfSchema(loaded)),
};

/** A bespoke screen's module, with the namespaces its code uses loaded beside it (for React.lazy). */
export function withTexts<P>(namespaces: readonly string[], load: () => Promise<{ default: ComponentType<P> }>): () => Promise<{ default: ComponentType<P> }> {
  return () => Promise.all([load(), loadNamespaces(consoleI18n, lng(), namespaces).catch(() => undefined)]).then(([m]) => m);
}
