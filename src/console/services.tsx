/**
 * Binds the console's services to antd's App and the router, boots the session once, and
 * provides the RuntimeEnv to the pages.
 */
import { App } from 'antd';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { RuntimeEnv } from '../runtime/env.js';
import { bindHttpUi, http } from './http/instance.js';
import { buildRuntimeEnv } from './runtime-env.js';
import { bootSession } from './session/actions.js';
import { sessionStore } from './session/store.js';
import { settingsStore } from './settings/store.js';

const EnvContext = createContext<RuntimeEnv | null>(null);

export function useRuntimeEnv(): RuntimeEnv {
  const env = useContext(EnvContext);
  if (!env) throw new Error('useRuntimeEnv must be used inside <ConsoleServices>');
  return env;
}

let booted = false;

export function ConsoleServices({ children }: { children: ReactNode }) {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const access = sessionStore.use((s) => s.access);
  const locale = settingsStore.use((s) => s.locale);
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

  const env = useMemo(
    () => buildRuntimeEnv({ http, message, modal, navigate, t, access, locale, devMode }),
    [message, modal, navigate, t, access, locale, devMode],
  );
  return <EnvContext.Provider value={env}>{children}</EnvContext.Provider>;
}
