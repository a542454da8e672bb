/**
 * The loading indicator shown while a page loads (text 加载中...). Drawn without antd Spin, whose
 * code would otherwise travel with every route's first chunk (/login included): a ring in the
 * theme's primary colour, still when the system asks for reduced motion (global.css). It carries
 * Spin's `ant-spin-spinning` class name as a marker only (no antd style reaches it: antd's are
 * scoped to its hashed class), so whoever waits for "no spinner on screen" waits for this one too.
 */
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';

export function Loading({ fullscreen = false }: { fullscreen?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      role="status"
      data-testid="page-loading"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 12, minHeight: fullscreen ? '100vh' : 240 }}
    >
      <span
        aria-hidden
        className="console-spin ant-spin-spinning"
        style={{ width: 20, height: 20, borderColor: token.colorPrimaryBg, borderTopColor: token.colorPrimary }}
      />
      <span>{t('common.loading')}</span>
    </div>
  );
}
