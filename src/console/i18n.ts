/**
 * i18next setup: one namespace whose top-level keys are the locale files (`shell.*`,
 * `common.*`, …). Only the default locale's core texts (shell, common) are bundled with the
 * shell. The other texts (zh-CN) are one chunk per file (the largest, `text`, one per part:
 * `text.shop`), loaded with what needs them: a schema
 * page's namespaces are read from its schema's keys when it loads, with the schema runtime's own
 * (`runtime`; the schema loader waits for them: i18n-instance.ts `schemaTexts`), a bespoke screen
 * names its own (routes/pages.ts). Other locales
 * are one chunk each with every namespace, loaded before they are shown: `loadLocale` before a
 * locale is switched to (and before the first render when one is saved). The console never draws
 * keys or the wrong language.
 */
import type { Locale as AntdLocale } from 'antd/es/locale/index.js';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { CORE_NAMESPACES, type LocaleTree } from './i18n-bundle.js';
import * as zhCN from './i18n-zh-CN.js';
import { DEFAULT_LOCALE, type Locale } from './settings/store.js';

export interface LocaleBundle {
  /** the core namespaces (en-US: all of them) */
  texts: LocaleTree;
  antd: AntdLocale;
  /** dayjs's name of the locale (applied by the signed-in layout: layout/dayjs-locale.ts) */
  dayjsLocale: string;
}

const lazyLocales: Record<Exclude<Locale, 'zh-CN'>, () => Promise<LocaleBundle>> = {
  'en-US': () => import('./i18n-en-US.js'),
};
/** zh-CN's modules' texts, one chunk per namespace (the locales of the other languages hold every namespace) */
const zhModuleFiles = import.meta.glob<LocaleTree>(['../locales/zh-CN/*.json', '!../locales/zh-CN/{shell,common}.json'], { import: 'default' });
const zhModuleTexts: Record<string, () => Promise<LocaleTree>> = Object.fromEntries(
  Object.entries(zhModuleFiles).map(([file, load]) => [/([^/]+)\.json$/.exec(file)![1], load]),
);
/** The namespaces that belong to modules' pages (not bundled with the shell). */
export const MODULE_NAMESPACES: readonly string[] = Object.keys(zhModuleTexts).filter((ns) => !(CORE_NAMESPACES as readonly string[]).includes(ns));
/**
 * The largest namespace (`text`, 22 KB: every text-module page's words) comes in parts too, one
 * chunk per second-level key (`text.shop`, `text.sync`), cut by vite.config.ts `localeParts`: a
 * page loads the parts its schema names. The map of a namespace's parts is a small chunk of its own
 * (the sign-in page does not load it; a signed-in start fetches it early: `preloadTextParts`); a
 * part the map does not know brings the whole namespace.
 */
type PartMap = Record<string, () => Promise<LocaleTree | string>>;
const zhPartMaps = import.meta.glob<PartMap>('../locales/zh-CN/text.json', { query: '?parts', import: 'default' });

/** Loads once; a failed load is retried on the next call. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () =>
    (p ??= load().catch((e: unknown) => {
      p = null;
      throw e;
    }));
}

const bundles = new Map<Locale, LocaleBundle>([['zh-CN', zhCN]]);
const loadBundle = Object.fromEntries(
  Object.entries(lazyLocales).map(([lng, load]) => [lng, once(() => load().then((b) => (bundles.set(lng as Locale, b), b)))]),
) as Record<string, () => Promise<LocaleBundle>>;
const loadZhNamespace = Object.fromEntries(Object.entries(zhModuleTexts).map(([ns, load]) => [ns, once(load)])) as Record<string, () => Promise<LocaleTree>>;
/** the namespaces that come in parts → the map of their parts */
const loadPartMap = Object.fromEntries(Object.entries(zhPartMaps).map(([file, load]) => [/([^/]+)\.json/.exec(file)![1], once(load)])) as Record<string, () => Promise<PartMap>>;

/** Starts fetching the maps of the namespaces that come in parts (a signed-in start: App.tsx). */
export const preloadTextParts = (): Promise<unknown> => Promise.all(Object.values(loadPartMap).map((load) => load()));

/** `text.shop` → `text`; a whole namespace → itself */
const wholeOf = (ns: string) => ns.split('.')[0];

/** The texts of a namespace or of a part of one, and what they are (the whole namespace for a part its map does not know). */
async function loadZh(ns: string): Promise<{ loaded: string; texts: LocaleTree | string }> {
  const head = wholeOf(ns);
  const part = ns === head ? undefined : (await loadPartMap[head]?.())?.[ns.slice(head.length + 1)];
  return part ? { loaded: ns, texts: await part() } : { loaded: head, texts: await loadZhNamespace[head]() };
}
/** a namespace's or a part's texts in their place in the tree */
const placed = (ns: string, texts: LocaleTree | string): LocaleTree => {
  const [head, part] = ns.split('.');
  return part === undefined ? { [head]: texts } : { [head]: { [part]: texts } };
};

const add = (i18n: I18n, lng: Locale, texts: LocaleTree) => i18n.addResourceBundle(lng, 'translation', texts, true, true);

/** The bundle of a locale that is already loaded (zh-CN always is). */
export function loadedLocale(lng: Locale): LocaleBundle | undefined {
  return bundles.get(lng);
}

/** per instance: the namespaces asked for (kept across language switches) and, per locale, those added */
const state = new WeakMap<I18n, { asked: Set<string>; added: Map<Locale, Set<string>> }>();
const stateOf = (i18n: I18n) => {
  let s = state.get(i18n);
  if (!s) state.set(i18n, (s = { asked: new Set(), added: new Map() }));
  return s;
};
/** a locale whose bundle holds every namespace */
const whole = (lng: Locale) => lng !== 'zh-CN';

/** True when `namespaces` of `lng` are in `i18n` (a locale other than zh-CN: once its bundle is). */
export function hasNamespaces(i18n: I18n, lng: Locale, namespaces: readonly string[]): boolean {
  if (whole(lng)) return bundles.has(lng) && i18n.hasResourceBundle(lng, 'translation');
  const added = stateOf(i18n).added.get(lng);
  return namespaces.every((ns) => added?.has(ns) || added?.has(wholeOf(ns)) || !loadZhNamespace[wholeOf(ns)]);
}

/** Notes namespaces a page on screen uses (a switch to zh-CN loads them, `loadLocale`), without loading them. */
export function noteNamespaces(i18n: I18n, namespaces: readonly string[]): void {
  const asked = stateOf(i18n).asked;
  namespaces.forEach((ns) => asked.add(ns));
}

/** Adds the texts of `namespaces` for `lng` to `i18n` (with the locale itself when it is not loaded yet). */
export async function loadNamespaces(i18n: I18n, lng: Locale, namespaces: readonly string[]): Promise<void> {
  const s = stateOf(i18n);
  namespaces.forEach((ns) => s.asked.add(ns));
  if (whole(lng)) {
    if (!hasNamespaces(i18n, lng, namespaces)) await loadLocale(i18n, lng);
    return;
  }
  const added = s.added.get(lng) ?? new Set<string>();
  s.added.set(lng, added);
  const missing = namespaces.filter((ns) => loadZhNamespace[wholeOf(ns)] && !added.has(ns) && !added.has(wholeOf(ns)));
  for (const { loaded, texts } of await Promise.all(missing.map(loadZh))) {
    add(i18n, lng, placed(loaded, texts));
    added.add(loaded);
  }
}

/** Loads a locale's bundle (once) and adds its texts to `i18n`, with the modules' namespaces asked for so far. */
export async function loadLocale(i18n: I18n, lng: Locale): Promise<LocaleBundle> {
  const bundle = bundles.get(lng) ?? (await loadBundle[lng]());
  add(i18n, lng, bundle.texts);
  if (!whole(lng)) await loadNamespaces(i18n, lng, [...stateOf(i18n).asked]);
  return bundle;
}

const NAMESPACE_KEY = /^([A-Za-z]+)\.([\w-]+)[\w.-]*$/;

/**
 * The modules' namespaces a document's strings name as keys (`runtime.list.empty` → runtime), or
 * the part of a namespace that comes in parts (`text.shop.title` → text.shop), for a schema page.
 */
export function namespacesOf(doc: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      const m = NAMESPACE_KEY.exec(v);
      if (m && MODULE_NAMESPACES.includes(m[1])) found.add(loadPartMap[m[1]] ? `${m[1]}.${m[2]}` : m[1]);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(doc);
  return [...found];
}

/** An i18next instance on `lng` when it is loaded, else on the default locale until `loadLocale`. */
export function createI18n(lng: Locale): I18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries([...bundles].map(([l, b]) => [l, { translation: { ...b.texts } }]));
  void instance.use(initReactI18next).init({
    lng: bundles.has(lng) ? lng : DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    resources,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}
