/** Where the guard sends routes the user may not open. */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export default function NoPermission() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div data-testid="no-permission">
      <Result
        status="403"
        title={t('shell.noPermission.title')}
        subTitle={t('shell.noPermission.subTitle')}
        extra={<Button type="primary" onClick={() => navigate('/home')}>{t('shell.noPermission.backHome')}</Button>}
      />
    </div>
  );
}
