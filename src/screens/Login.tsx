/** The login page: no layout; email and password, each with a prompt when empty. */
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { http } from '../console/http/instance.js';
import { login } from '../console/session/actions.js';
import { sessionStore } from '../console/session/store.js';
import { LanguageSwitch } from '../console/layout/LanguageSwitch.js';

interface LoginForm {
  email: string;
  password: string;
}

export default function Login() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const status = sessionStore.use((s) => s.status);
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from;

  if (status === 'ready') return <Navigate to={from && from !== '/login' ? from : '/home'} replace />;

  const submit = async (values: LoginForm) => {
    setBusy(true);
    try {
      await login(http, values.email.trim(), values.password);
      void message.success(t('shell.login.success'));
      navigate(from && from !== '/login' ? from : '/home', { replace: true });
    } catch {
      /* the client already showed the server message */
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="login-screen" data-testid="login-page">
      <div style={{ position: 'absolute', top: 16, right: 24 }}>
        <LanguageSwitch />
      </div>
      <Card style={{ width: 380, maxWidth: '92vw' }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginBottom: 4 }}>
          {t('shell.login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          {t('shell.login.subtitle')}
        </Typography.Paragraph>
        <Form<LoginForm> layout="vertical" onFinish={submit} requiredMark={false} autoComplete="on">
          <Form.Item
            name="email"
            label={t('shell.login.email')}
            rules={[{ required: true, whitespace: true, message: t('shell.login.emailRequired') }]}
          >
            <Input prefix={<MailOutlined />} placeholder={t('shell.login.emailPlaceholder')} autoComplete="username" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('shell.login.password')}
            rules={[{ required: true, message: t('shell.login.passwordRequired') }]}
          >
            <Input.Password prefix={<LockOutlined />} placeholder={t('shell.login.passwordPlaceholder')} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('shell.login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
