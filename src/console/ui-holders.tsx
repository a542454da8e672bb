/**
 * The antd modal and notification hooks, loaded on the first confirm / notification (a chunk
 * of its own, so /login and the list pages do not carry Modal and Notification). Rendered
 * inside the shell's ConfigProvider, so theme, dark mode and locale apply as with antd's App.
 */
import useModal, { type HookAPI as ModalApi } from 'antd/es/modal/useModal/index.js';
import type { NotificationInstance } from 'antd/es/notification/interface.js';
import useNotification from 'antd/es/notification/useNotification.js';
import { useEffect } from 'react';

export interface LazyApis {
  modal: ModalApi;
  notification: NotificationInstance;
}

export default function UiHolders({ onReady }: { onReady(apis: LazyApis): void }) {
  const [modal, modalHolder] = useModal();
  const [notification, notificationHolder] = useNotification();
  useEffect(() => onReady({ modal, notification }), [modal, notification, onReady]);
  return (
    <>
      {modalHolder}
      {notificationHolder}
    </>
  );
}
