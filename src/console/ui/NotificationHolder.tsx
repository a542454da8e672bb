/** antd's notification hook (a chunk of its own, loaded with the first notification). */
import useNotification from 'antd/es/notification/useNotification.js';
import { useEffect } from 'react';
import type { HolderProps } from './ui-apis.js';

export default function NotificationHolder({ onReady }: HolderProps<'notification'>) {
  const [api, holder] = useNotification();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
