/**
 * i18next setup: one namespace whose top-level keys are the locale files (`shell.*`,
 * `common.*`, …). Only the default locale's core texts (shell, common, runtime) are bundled
 * with the shell; the modules' texts and other locales are chunks, loaded before they are
 * shown: `loadLocale` before a locale is switched to (and before the first render when one
 * is saved), `loadModuleTexts` before the main layout draws a page. The console never draws
 * keys or the wrong language.
 */
import type { Locale as AntdLocale } from 'antd/es/locale/index.js';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocaleTree } from './i18n-bundle.js';
import * as zhCN from './i18n-zh-CN.js';
import { DEFAULT_LOCALE, type Locale } from './settings/store.js';

export interface LocaleBundle {
  /** the core namespaces (en-US: all of them) */
  texts: LocaleTree;
  antd: AntdLocale;
  dayjsLocale: string;
}

const lazyLocales: Record<Exclude<Locale, 'zh-CN'>, () => Promise<LocaleBundle>> = {
  'en-US': () => import('./i18n-en-US.js'),
};
/** the modules' texts, where they are not in the locale's bundle */
const lazyModuleTexts: Partial<Record<Locale, () => Promise<{ texts: LocaleTree }>>> = {
  'zh-CN': () => import('./i18n-zh-CN-modules.js'),
};

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
const moduleTexts = new Map<Locale, LocaleTree>();
const loadModules = Object.fromEntries(
  Object.entries(lazyModuleTexts).map(([lng, load]) => [lng, once(() => load().then((m) => (moduleTexts.set(lng as Locale, m.texts), m.texts)))]),
) as Record<string, () => Promise<LocaleTree>>;

const add = (i18n: I18n, lng: Locale, texts: LocaleTree) => i18n.addResourceBundle(lng, 'translation', texts, true, true);

/** The bundle of a locale that is already loaded (zh-CN always is). */
export function loadedLocale(lng: Locale): LocaleBundle | undefined {
  return bundles.get(lng);
}

/** Loads a locale's bundle (once) and adds its texts to `i18n`; `withModules` adds the modules' texts too. */
export async function loadLocale(i18n: I18n, lng: Locale, opts: { withModules?: boolean } = {}): Promise<LocaleBundle> {
  const bundle = bundles.get(lng) ?? (await loadBundle[lng]());
  add(i18n, lng, bundle.texts);
  if (opts.withModules) await loadModuleTexts(i18n, lng);
  return bundle;
}

/** which instances hold which locales' module texts */
const withModules = new WeakMap<I18n, Set<Locale>>();
const mark = (i18n: I18n, lng: Locale) => withModules.set(i18n, new Set([...(withModules.get(i18n) ?? []), lng]));

/** True when `lng`'s modules' texts are in `i18n`. */
export function hasModuleTexts(i18n: I18n, lng: Locale): boolean {
  return withModules.get(i18n)?.has(lng) ?? false;
}

/** Adds the texts of the modules' pages for `lng` (with the locale itself when it is not loaded yet). */
export async function loadModuleTexts(i18n: I18n, lng: Locale): Promise<void> {
  if (hasModuleTexts(i18n, lng)) return;
  if (lazyModuleTexts[lng]) add(i18n, lng, moduleTexts.get(lng) ?? (await loadModules[lng]()));
  else await loadLocale(i18n, lng); // this locale's bundle holds every namespace
  mark(i18n, lng);
}

/** An i18next instance on `lng` when it is loaded, else on the default locale until `loadLocale`. */
export function createI18n(lng: Locale): I18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries([...bundles].map(([l, b]) => [l, { translation: { ...b.texts, ...moduleTexts.get(l) } }]));
  for (const l of bundles.keys()) if (moduleTexts.has(l) || !lazyModuleTexts[l]) mark(instance, l);
  void instance.use(initReactI18next).init({
    lng: bundles.has(lng) ? lng : DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    resources,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}
