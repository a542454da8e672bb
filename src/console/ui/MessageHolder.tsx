/** antd's message hook (a chunk of its own, loaded with the first message). */
import useMessage from 'antd/es/message/useMessage.js';
import { useEffect } from 'react';
import type { HolderProps } from './ui-apis.js';

export default function MessageHolder({ onReady }: HolderProps<'message'>) {
  const [api, holder] = useMessage();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
