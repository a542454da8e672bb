/**
 * Builds the RuntimeEnv (src/runtime/env.ts) from the console's services: the HTTP client,
 * antd App message / modal, the router's navigate, i18next's t, the permission check, the
 * locale and the explicit devMode setting.
 */
import type { MessageInstance } from 'antd/es/message/interface.js';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal/index.js';
import type { NavigateFunction } from 'react-router-dom';
import { can, type AccessState } from '../contract/access.js';
import type { HttpPort, RuntimeEnv, SchemaTexts } from '../runtime/env.js';
import type { Locale } from './settings/store.js';

export interface RuntimeEnvDeps {
  http: HttpPort;
  message: Pick<MessageInstance, 'success' | 'error' | 'info'>;
  modal: Pick<ModalHookAPI, 'confirm'>;
  navigate: NavigateFunction;
  t(key: string, vars?: Record<string, unknown>): string;
  access: AccessState;
  locale: Locale;
  devMode: boolean;
  /** the modules' texts a schema names (i18n-instance.ts) */
  schemaTexts?: SchemaTexts;
}

export function buildRuntimeEnv(d: RuntimeEnvDeps): RuntimeEnv {
  return {
    http: d.http,
    notify: {
      success: (text) => void d.message.success(text),
      error: (text) => void d.message.error(text),
      info: (text) => void d.message.info(text),
    },
    confirm: (text, opts) =>
      new Promise<boolean>((resolve) => {
        d.modal.confirm({
          title: opts?.title,
          content: text,
          okText: d.t('common.ok'),
          cancelText: d.t('common.cancel'),
          okButtonProps: { danger: opts?.danger },
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        });
      }),
    navigate: (to, opts) => void d.navigate(to, { replace: opts?.replace }),
    t: (key, vars) => d.t(key, vars),
    can: (key) => can(d.access, key),
    locale: d.locale,
    devMode: d.devMode,
    schemaTexts: d.schemaTexts,
  };
}
