/**
 * Binds the console's services to antd and the router, boots the session once, and provides
 * the RuntimeEnv to the pages.
 *
 * `ConsoleUiProvider` stands in for antd's `<App>`: the same `ant-app` root (font and text
 * colour from the theme, dark mode included) and the same context, so `App.useApp()` keeps
 * working, but message, modal (the runtime's confirm) and notification load their code on
 * first use (./ui/holders.tsx) instead of travelling with every page.
 */
import AppContext from 'antd/es/app/context.js';
import useAppStyle from 'antd/es/app/style/index.js';
import { ConfigProvider } from 'antd';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { RuntimeEnv } from '../runtime/env.js';
import { bindHttpUi, http } from './http/instance.js';
import { schemaTexts } from './i18n-instance.js';
import { buildRuntimeEnv } from './runtime-env.js';
import { ShellProvider } from './shell.js';
import { bootSession, refreshLiveTree } from './session/actions.js';
import { sessionStore } from './session/store.js';
import { settingsStore, type Locale } from './settings/store.js';
import { useLazyUi, type UiApis } from './ui/holders.js';

export type ConsoleUi = UiApis;

/** message / modal / notification bound to the theme (what antd's App.useApp() returns). */
export function useConsoleUi(): ConsoleUi {
  return useContext(AppContext) as ConsoleUi;
}

/** The `ant-app` root; message, modal and notification load their code on first use (./ui/holders.tsx). */
export function ConsoleUiProvider({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [wrapCSSVar, hashId, cssVarCls] = useAppStyle(prefixCls);
  const { message, modal, notification, holders } = useLazyUi();
  const value = useMemo<ConsoleUi>(() => ({ message, modal, notification }), [message, modal, notification]);
  return wrapCSSVar(
    <AppContext.Provider value={value}>
      <div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>
        {holders}
        {children}
      </div>
    </AppContext.Provider>,
  );
}

const EnvContext = createContext<RuntimeEnv | null>(null);

export function useRuntimeEnv(): RuntimeEnv {
  const env = useContext(EnvContext);
  if (!env) throw new Error('useRuntimeEnv must be used inside <ConsoleServices>');
  return env;
}

let booted = false;

export function ConsoleServices({ children }: { children: ReactNode }) {
  const { message, modal } = useConsoleUi();
  const navigate = useNavigate();
  const { t, i18n } = useTranslation();
  const access = sessionStore.use((s) => s.access);
  // the language the texts are in (it changes with `t`), not the chosen one: a switch in place
  // sets the setting first and the language once the new bundle is loaded (App.tsx), and a
  // page that follows the locale (a form page mounts again) must see both change together
  const locale = (i18n.language === 'en-US' ? 'en-US' : 'zh-CN') as Locale;
  const devMode = settingsStore.use((s) => s.devMode);

  bindHttpUi({
    t: (key, vars) => t(key, vars),
    showError: (text) => void message.error(text),
    toLogin: () => navigate('/login', { replace: true }),
  });

  useEffect(() => {
    if (booted) return;
    booted = true;
    bootSession(http).catch(() => undefined);
  }, []);

  // under the server's dev watch: a page added live appears when the person returns to the tab
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'visible') refreshLiveTree(http).catch(() => undefined);
    };
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, []);

  const env = useMemo(
    () => buildRuntimeEnv({ http, message, modal, navigate, t, access, locale, devMode, schemaTexts }),
    [message, modal, navigate, t, access, locale, devMode],
  );
  return (
    <EnvContext.Provider value={env}>
      <ShellProvider env={env}>{children}</ShellProvider>
    </EnvContext.Provider>
  );
}
