/**
 * The module homes' texts (both locales). They travel in the home's own chunk instead of the
 * locale files under src/locales, which the sign-in page (shell.json) and every list page (the
 * modules' texts) load: the homes' words must not weigh on those routes' bundles
 * (docs/performance.md). Both locales are small, so both come with the chunk and are added to
 * the console's i18next instance under `home.*` the first time a home draws; `texts.test.ts`
 * keeps the two files' keys equal and no value empty.
 */
import type { i18n as I18n } from 'i18next';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';

export type HomeTexts = typeof enUS;
export const HOME_TEXTS: Record<'zh-CN' | 'en-US', HomeTexts> = { 'zh-CN': zhCN, 'en-US': enUS };

const added = new WeakSet<I18n>();

/** Adds the homes' texts to `i18n` once (deep merge, so nothing else is touched). */
export function ensureHomeTexts(i18n: I18n): void {
  if (added.has(i18n)) return;
  for (const [lng, tree] of Object.entries(HOME_TEXTS)) i18n.addResourceBundle(lng, 'translation', { home: tree }, true, true);
  added.add(i18n);
}
