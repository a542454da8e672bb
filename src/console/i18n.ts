/** i18next setup: one namespace whose top-level keys are the locale files (`shell.*`, `common.*`, …). */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { resources } from '../locales/index.js';
import { DEFAULT_LOCALE, type Locale } from './settings/store.js';

export function createI18n(lng: Locale): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng,
    fallbackLng: DEFAULT_LOCALE,
    resources: Object.fromEntries(Object.entries(resources).map(([l, tree]) => [l, { translation: tree }])),
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}
