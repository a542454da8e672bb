/** antd's modal hook (a chunk of its own, loaded with the first confirm). */
import useModal from 'antd/es/modal/useModal/index.js';
import { useEffect } from 'react';
import type { HolderProps } from './ui-apis.js';

export default function ModalHolder({ onReady }: HolderProps<'modal'>) {
  const [api, holder] = useModal();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
