/**
 * message / modal / notification as antd's App provides them, with their code loaded on the
 * first call: until then a call is queued, the holder (the antd hook plus its context holder,
 * rendered inside the shell's ConfigProvider so theme, dark mode and locale apply) is mounted,
 * and the queued calls run once it is ready. Nothing is shown on a page that never calls them,
 * so /login and the list pages carry none of this code.
 */
import type { MessageInstance, MessageType } from 'antd/es/message/interface.js';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal/index.js';
import type { NotificationInstance } from 'antd/es/notification/interface.js';
import { lazy, Suspense, useCallback, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import type { HolderProps, UiApis, UiKind as Kind } from './ui-apis.js';

export type { UiApis } from './ui-apis.js';

const holders: { [K in Kind]: ComponentType<HolderProps<K>> } = {
  message: lazy(() => import('./MessageHolder.js')),
  modal: lazy(() => import('./ModalHolder.js')),
  notification: lazy(() => import('./NotificationHolder.js')),
};

type Run<K extends Kind> = (api: UiApis[K]) => void;

/** The three APIs (stable objects) and the holders to render next to the page. */
export function useLazyUi(): UiApis & { holders: ReactNode } {
  const [wanted, setWanted] = useState<Kind[]>([]);
  const ready = useRef<Partial<UiApis>>({});
  const queues = useRef<{ [K in Kind]: Array<Run<K>> }>({ message: [], modal: [], notification: [] });

  const onReady = useMemo(() => {
    const bind =
      <K extends Kind>(kind: K) =>
      (api: UiApis[K]) => {
        (ready.current as Record<Kind, unknown>)[kind] = api;
        for (const run of queues.current[kind].splice(0) as Array<Run<K>>) run(api);
      };
    return { message: bind('message'), modal: bind('modal'), notification: bind('notification') };
  }, []);

  const later = useCallback(<K extends Kind>(kind: K, run: Run<K>) => {
    const api = ready.current[kind] as UiApis[K] | undefined;
    if (api) return run(api);
    (queues.current[kind] as Array<Run<K>>).push(run);
    setWanted((w) => (w.includes(kind) ? w : [...w, kind]));
  }, []);

  const apis = useMemo<UiApis>(() => {
    /** A message shown once the code is here; the handle closes it (even before) and is thenable like antd's. */
    const showMessage = (show: (m: MessageInstance) => MessageType): MessageType => {
      let close: (() => void) | null = null;
      let closed = false;
      let settle!: (v: boolean) => void;
      const done = new Promise<boolean>((resolve) => (settle = resolve));
      later('message', (m) => {
        if (closed) return settle(false);
        const shown = show(m);
        close = shown;
        void shown.then(settle);
      });
      const handle = (() => {
        closed = true;
        close?.();
      }) as MessageType;
      handle.then = (ok, fail) => done.then(ok, fail);
      return handle;
    };
    type MessageFn = MessageInstance['success'];
    const messageFn =
      (type: 'info' | 'success' | 'error' | 'warning' | 'loading'): MessageFn =>
      (...args: Parameters<MessageFn>) =>
        showMessage((m) => m[type](...args));
    const message: MessageInstance = {
      info: messageFn('info'),
      success: messageFn('success'),
      error: messageFn('error'),
      warning: messageFn('warning'),
      loading: messageFn('loading'),
      open: (args) => showMessage((m) => m.open(args)),
      destroy: (key) => ready.current.message?.destroy(key),
    };

    type ModalFn = ModalApi['confirm'];
    type ModalUpdate = Parameters<ReturnType<ModalFn>['update']>[0];
    const modalFn =
      (type: keyof ModalApi): ModalFn =>
      (config) => {
        let instance: ReturnType<ModalFn> | null = null;
        let cancelled = false;
        const updates: ModalUpdate[] = [];
        let settle!: (confirmed: boolean) => void;
        const result = new Promise<boolean>((resolve) => (settle = resolve));
        later('modal', (a) => {
          if (cancelled) return settle(false);
          instance = a[type](config);
          for (const u of updates) instance.update(u);
          void instance.then(settle, () => settle(false));
        });
        return {
          destroy: () => {
            cancelled = true;
            instance?.destroy();
          },
          update: (u: ModalUpdate) => (instance ? instance.update(u) : void updates.push(u)),
          then: <T,>(resolve: (confirmed: boolean) => T, reject?: VoidFunction) => result.then(resolve, reject) as Promise<T>,
        };
      };
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
        later('notification', (n) => n[type](args));
    const notification: NotificationInstance = {
      success: noteFn('success'),
      error: noteFn('error'),
      info: noteFn('info'),
      warning: noteFn('warning'),
      open: noteFn('open'),
      destroy: (key) => ready.current.notification?.destroy(key),
    };
    return { message, modal, notification };
  }, [later]);

  const rendered = wanted.map((kind) => {
    const Holder = holders[kind] as ComponentType<HolderProps<Kind>>;
    return (
      <Suspense key={kind} fallback={null}>
        <Holder onReady={onReady[kind] as HolderProps<Kind>['onReady']} />
      </Suspense>
    );
  });
  return { ...apis, holders: rendered };
}
