/** The console root: i18n, antd theme and locale from the settings, the antd App stand-in, router, services. */
import { ConfigProvider, theme } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { readSid } from './http/cookies.js';
import { preloadTransport } from './http/lazy-transport.js';
import { loadedLocale, loadLocale, preloadTextParts, type LocaleBundle } from './i18n.js';
import { consoleI18n as i18n } from './i18n-instance.js';
import { AppRoutes } from './routes/AppRoutes.js';
import { ConsoleServices, ConsoleUiProvider } from './services.js';
import { DEFAULT_LOCALE, settingsStore, type Locale } from './settings/store.js';
import { readableTokens } from './settings/contrast.js';
import { onLiveTexts } from '../runtime/permission-tree.js';

// under the server's dev watch, texts added since the build (a new page's keys) arrive with the
// permission tree at sign-in: merged over the bundled ones (src/runtime/permission-tree.ts)
onLiveTexts((texts) => {
  for (const [lng, tree] of Object.entries(texts)) i18n.addResourceBundle(lng, 'translation', tree, true, true);
});

/** Resolves once the saved locale's texts are here (call before the first render). */
export function prepareConsole(): Promise<void> {
  // a signed-in page load calls the API at once: fetch the HTTP transport beside the locale, and
  // the map of the text namespace's parts its page will ask for
  if (readSid()) {
    void preloadTransport().catch(() => undefined);
    void preloadTextParts().catch(() => undefined);
  }
  return loadLocale(i18n, settingsStore.get().locale).then(
    () => undefined,
    () => undefined, // the default locale is bundled; the console still starts
  );
}

export function ConsoleApp() {
  const { locale, dark, primaryColor } = settingsStore.use((s) => s);
  // the locale on screen: the chosen one once its bundle is loaded
  const [shown, setShown] = useState<{ locale: Locale; bundle: LocaleBundle }>(() => {
    const have = loadedLocale(locale);
    return have ? { locale, bundle: have } : { locale: DEFAULT_LOCALE, bundle: loadedLocale(DEFAULT_LOCALE)! };
  });

  useEffect(() => {
    if (locale === shown.locale) return;
    let live = true;
    // the modules' namespaces loaded so far come along (i18n.ts)
    loadLocale(i18n, locale)
      .then((bundle) => live && setShown({ locale, bundle }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [locale, shown.locale]);

  useEffect(() => {
    void i18n.changeLanguage(shown.locale);
    document.documentElement.lang = shown.locale;
    document.title = i18n.t('shell.app.title');
  }, [shown]);

  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);

  const reducedMotion = useReducedMotion();
  const themeConfig = useMemo(() => {
    const tokens = readableTokens(primaryColor, dark);
    // a person who asked their system for less motion gets no antd animations (WCAG 2.3.3)
    return { algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, ...tokens, token: { ...tokens.token, motion: !reducedMotion } };
  }, [dark, primaryColor, reducedMotion]);

  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={shown.bundle.antd} theme={themeConfig}>
        <ConsoleUiProvider>
          <BrowserRouter>
            <ConsoleServices>
              <AppRoutes />
            </ConsoleServices>
          </BrowserRouter>
        </ConsoleUiProvider>
      </ConfigProvider>
    </I18nextProvider>
  );
}

const REDUCE = '(prefers-reduced-motion: reduce)';

/** Whether the system asks for reduced motion (followed live). */
function useReducedMotion(): boolean {
  const [reduce, setReduce] = useState(() => typeof window !== 'undefined' && !!window.matchMedia?.(REDUCE).matches);
  useEffect(() => {
    const mq = window.matchMedia?.(REDUCE);
    if (!mq) return;
    const on = () => setReduce(mq.matches);
    mq.addEventListener?.('change', on);
    return () => mq.removeEventListener?.('change', on);
  }, []);
  return reduce;
}
