/** The loading indicator shown while a page loads (text 加载中...). */
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function Loading({ fullscreen = false }: { fullscreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      data-testid="page-loading"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 12, minHeight: fullscreen ? '100vh' : 240 }}
    >
      <Spin />
      <span>{t('common.loading')}</span>
    </div>
  );
}
