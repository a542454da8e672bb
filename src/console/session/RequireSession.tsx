/** Every route but /login needs a session: wait for start-up, send anonymous visitors to /login. */
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { Loading } from '../../screens/Loading.js';
import { LazyResult } from '../../widgets/LazyResult.js';
import { http } from '../http/instance.js';
import { bootSession } from './actions.js';
import { clearSession, sessionStore } from './store.js';

export function RequireSession() {
  const status = sessionStore.use((s) => s.status);
  const location = useLocation();
  const { t } = useTranslation();
  if (status === 'booting') return <Loading fullscreen />;
  if (status === 'anonymous') return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (status === 'error')
    return (
      <LazyResult
        status="warning"
        title={t('shell.boot.failed')}
        extra={[
          <Button key="retry" type="primary" onClick={() => bootSession(http).catch(() => undefined)}>
            {t('shell.boot.retry')}
          </Button>,
          <Button key="login" onClick={clearSession}>
            {t('shell.boot.toLogin')}
          </Button>,
        ]}
      />
    );
  return <Outlet />;
}
