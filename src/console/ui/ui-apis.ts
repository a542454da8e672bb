/**
 * The types the lazy UI holders share: holders.tsx loads each holder, the holders report their
 * API back through HolderProps. Apart from holders.tsx so a holder does not import its loader.
 */
import type { MessageInstance } from 'antd/es/message/interface.js';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal/index.js';
import type { NotificationInstance } from 'antd/es/notification/interface.js';

export interface UiApis {
  message: MessageInstance;
  modal: ModalApi;
  notification: NotificationInstance;
}

export type UiKind = keyof UiApis;

export interface HolderProps<K extends UiKind> {
  onReady(api: UiApis[K]): void;
}
