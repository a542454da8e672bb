/** Unknown routes. */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export default function NotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div data-testid="not-found">
      <Result
        status="404"
        title={t('shell.notFound.title')}
        subTitle={t('shell.notFound.subTitle')}
        extra={<Button type="primary" onClick={() => navigate('/home')}>{t('shell.notFound.backHome')}</Button>}
      />
    </div>
  );
}
