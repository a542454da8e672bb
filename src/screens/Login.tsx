/**
 * The login page: no layout; email and password, each with a prompt when empty. Kept light
 * (it is the first page most visitors load): the card and headings are drawn from theme
 * tokens rather than antd Card / Typography, and Input / Password come without TextArea.
 */
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { Button, Form, theme } from 'antd';
import Input from 'antd/es/input/Input.js';
import Password from 'antd/es/input/Password.js';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useShell } from '../runtime/shell.js';

interface LoginForm {
  email: string;
  password: string;
}

export default function Login() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<LoginForm>();
  const shell = useShell();
  const { LanguageSwitch } = shell;
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const status = shell.useState((s) => s.status);
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from;

  // a prompt already showing follows a language switch (it was written in the old language)
  useEffect(() => {
    const shown = form.getFieldsError().filter((f) => f.errors.length > 0).map((f) => f.name);
    if (shown.length) form.validateFields(shown).catch(() => undefined);
  }, [form, i18n.language]);

  if (status === 'ready') return <Navigate to={from && from !== '/login' ? from : '/home'} replace />;

  const submit = async (values: LoginForm) => {
    setBusy(true);
    try {
      const notice = await shell.login(values.email.trim(), values.password);
      shell.env.notify.success(t('shell.login.success'));
      navigate(from && from !== '/login' ? from : '/home', { replace: true });
      // the account ceiling was reached since the last sign-in: the owner is told once (issue 25)
      if (notice) {
        const since = notice.since ? new Date(notice.since).toLocaleString(i18n.language) : t('shell.login.ceilingNever');
        void shell.env.confirm(t('shell.login.ceilingNotice', { count: notice.failed_attempts, addresses: notice.addresses, since }), {
          title: t('shell.login.ceilingTitle'),
        });
      }
    } catch {
      /* the client already showed the server message */
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login-screen" data-testid="login-page">
      <div style={{ position: 'absolute', top: 16, right: 24 }}>
        <LanguageSwitch />
      </div>
      <div
        className="login-card"
        style={{
          width: 380,
          maxWidth: '92vw',
          boxSizing: 'border-box',
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
        }}
      >
        <h3
          style={{
            textAlign: 'center',
            margin: '1em 0 4px', // as antd Typography.Title (the browser's heading margin above)
            color: token.colorTextHeading,
            fontSize: token.fontSizeHeading3,
            lineHeight: token.lineHeightHeading3,
            fontWeight: token.fontWeightStrong,
          }}
        >
          {t('shell.login.title')}
        </h3>
        <p style={{ textAlign: 'center', margin: '0 0 1em', color: token.colorTextDescription }}>{t('shell.login.subtitle')}</p>
        <Form<LoginForm>
          form={form}
          layout="vertical"
          onFinish={submit}
          requiredMark={false}
          autoComplete="on"
          // the HTTP library is not part of the page's first paint: fetch it once the visitor starts
          onFocus={shell.warmUp}
        >
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
            <Password prefix={<LockOutlined />} placeholder={t('shell.login.passwordPlaceholder')} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('shell.login.submit')}
          </Button>
        </Form>
      </div>
    </main>
  );
}
