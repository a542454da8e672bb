/**
 * i18next setup: one namespace whose top-level keys are the locale files (`shell.*`,
 * `common.*`, …). The default locale (zh-CN) is bundled with the shell; other locales are a
 * chunk each, loaded by `loadLocale` before they are shown (and before the first render when
 * one is saved in the settings), so the console never draws keys or the wrong language.
 */
import type { Locale as AntdLocale } from 'antd/es/locale/index.js';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import * as zhCN from './i18n-zh-CN.js';
import type { LocaleTree } from './i18n-bundle.js';
import { DEFAULT_LOCALE, type Locale } from './settings/store.js';

export interface LocaleBundle {
  texts: LocaleTree;
  antd: AntdLocale;
  dayjsLocale: string;
}

const lazyLocales: Record<Exclude<Locale, 'zh-CN'>, () => Promise<LocaleBundle>> = {
  'en-US': () => import('./i18n-en-US.js'),
};

const bundles = new Map<Locale, LocaleBundle>([['zh-CN', zhCN]]);
const pending = new Map<Locale, Promise<LocaleBundle>>();

/** The bundle of a locale that is already loaded (zh-CN always is). */
export function loadedLocale(lng: Locale): LocaleBundle | undefined {
  return bundles.get(lng);
}

/** Loads a locale's bundle (once) and adds its texts to `i18n`. */
export function loadLocale(i18n: I18n, lng: Locale): Promise<LocaleBundle> {
  const add = (b: LocaleBundle) => {
    if (!i18n.hasResourceBundle(lng, 'translation')) i18n.addResourceBundle(lng, 'translation', b.texts, true, true);
    return b;
  };
  const have = bundles.get(lng);
  if (have) return Promise.resolve(add(have));
  let p = pending.get(lng);
  if (!p) {
    const load = lazyLocales[lng as keyof typeof lazyLocales];
    p = load().then(
      (b) => {
        bundles.set(lng, b);
        return b;
      },
      (e: unknown) => {
        pending.delete(lng);
        throw e;
      },
    );
    pending.set(lng, p);
  }
  return p.then(add);
}

/** An i18next instance on `lng` when it is loaded, else on the default locale until `loadLocale`. */
export function createI18n(lng: Locale): I18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries([...bundles].map(([l, b]) => [l, { translation: b.texts }]));
  void instance.use(initReactI18next).init({
    lng: bundles.has(lng) ? lng : DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    resources,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}
