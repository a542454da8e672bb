/**
 * Binds the console's services to antd and the router, boots the session once, and provides
 * the RuntimeEnv to the pages.
 *
 * `ConsoleUi` stands in for antd's `<App>`: the same `ant-app` root (font and text colour from
 * the theme, dark mode included) and the same context, so `App.useApp()` keeps working, but
 * only `message` is bundled with the shell. Modal (the runtime's confirm) and notification
 * load on first use, from ./ui-holders.tsx.
 */
import AppContext from 'antd/es/app/context.js';
import useAppStyle from 'antd/es/app/style/index.js';
import { ConfigProvider } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface.js';
import useMessage from 'antd/es/message/useMessage.js';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal/index.js';
import type { NotificationInstance } from 'antd/es/notification/interface.js';
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { RuntimeEnv } from '../runtime/env.js';
import { bindHttpUi, http } from './http/instance.js';
import { buildRuntimeEnv } from './runtime-env.js';
import { bootSession } from './session/actions.js';
import { sessionStore } from './session/store.js';
import { settingsStore } from './settings/store.js';
import type { LazyApis } from './ui-holders.js';

const UiHolders = lazy(() => import('./ui-holders.js'));

export interface ConsoleUi {
  message: MessageInstance;
  modal: ModalApi;
  notification: NotificationInstance;
}

/** message / modal / notification bound to the theme (what antd's App.useApp() returns). */
export function useConsoleUi(): ConsoleUi {
  return useContext(AppContext) as ConsoleUi;
}

type Pending = (apis: LazyApis) => void;

/** Modal and notification APIs that load their code on the first call and then run it. */
function useLazyApis() {
  const [wanted, setWanted] = useState(false);
  const ready = useRef<LazyApis | null>(null);
  const queue = useRef<Pending[]>([]);
  const onReady = useCallback((apis: LazyApis) => {
    ready.current = apis;
    for (const run of queue.current.splice(0)) run(apis);
  }, []);
  const apis = useMemo(() => {
    const later = (run: Pending) => {
      if (ready.current) run(ready.current);
      else {
        queue.current.push(run);
        setWanted(true);
      }
    };
    const modalFn = (type: keyof ModalApi) =>
      ((config: Parameters<ModalApi['confirm']>[0]) => {
        let instance: ReturnType<ModalApi['confirm']> | null = null;
        let cancelled = false;
        const updates: Array<Parameters<ReturnType<ModalApi['confirm']>['update']>[0]> = [];
        let settle!: (confirmed: boolean) => void;
        const result = new Promise<boolean>((resolve) => (settle = resolve));
        later((a) => {
          if (cancelled) return settle(false);
          instance = a.modal[type](config);
          for (const u of updates) instance.update(u);
          void instance.then(settle, () => settle(false));
        });
        return {
          destroy: () => {
            cancelled = true;
            instance?.destroy();
          },
          update: (u: Parameters<ReturnType<ModalApi['confirm']>['update']>[0]) => (instance ? instance.update(u) : void updates.push(u)),
          then: <T,>(resolve: (confirmed: boolean) => T, reject?: VoidFunction) => result.then(resolve, reject),
        };
      }) as ModalApi['confirm'];
    const modal: ModalApi = {
      confirm: modalFn('confirm'),
      info: modalFn('info'),
      success: modalFn('success'),
      error: modalFn('error'),
      warning: modalFn('warning'),
    };
    const noteFn =
      (type: Exclude<keyof NotificationInstance, 'destroy'>): NotificationInstance['open'] =>
      (args) =>
        later((a) => a.notification[type](args));
    const notification: NotificationInstance = {
      success: noteFn('success'),
      error: noteFn('error'),
      info: noteFn('info'),
      warning: noteFn('warning'),
      open: noteFn('open'),
      destroy: (key) => ready.current?.notification.destroy(key),
    };
    return { modal, notification };
  }, []);
  const holders = wanted ? (
    <Suspense fallback={null}>
      <UiHolders onReady={onReady} />
    </Suspense>
  ) : null;
  return { ...apis, holders };
}

/** The `ant-app` root with message (bundled) and modal / notification (loaded on first use). */
export function ConsoleUiProvider({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [wrapCSSVar, hashId, cssVarCls] = useAppStyle(prefixCls);
  const [message, messageHolder] = useMessage();
  const { modal, notification, holders } = useLazyApis();
  const value = useMemo<ConsoleUi>(() => ({ message, modal, notification }), [message, modal, notification]);
  return wrapCSSVar(
    <AppContext.Provider value={value}>
      <div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>
        {messageHolder}
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
