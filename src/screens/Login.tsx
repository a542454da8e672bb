/**
 * The login page: no layout; email and password, each with a prompt when empty. Kept light
 * (it is the first page most visitors load): the card and headings are drawn from theme
 * tokens rather than antd Card / Typography, Input / Password come without TextArea, and the
 * two fields are laid out as antd's vertical form items from theme tokens (LoginField) rather
 * than with antd Form, whose store, fields and async validator two required checks do not need.
 */
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import Input from 'antd/es/input/Input.js';
import Password from 'antd/es/input/Password.js';
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useShell } from '../runtime/shell.js';

interface LoginForm {
  email: string;
  password: string;
}
type Field = keyof LoginForm;

/** the fields left empty (the email's whitespace counts as empty) */
const emptyFields = (v: LoginForm): Field[] => (['email', 'password'] as const).filter((f) => (f === 'email' ? !v.email.trim() : !v.password));

export default function Login() {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<LoginForm>({ email: '', password: '' });
  // which prompts show: kept as fields, not texts, so a language switch redraws them
  const [prompted, setPrompted] = useState<Field[]>([]);
  const shell = useShell();
  const { LanguageSwitch } = shell;
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const status = shell.useState((s) => s.status);
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from;

  if (status === 'ready') return <Navigate to={from && from !== '/login' ? from : '/home'} replace />;

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // as antd Form validates on change: a prompt goes once the field is filled, and comes back when emptied
    setPrompted((p) => (emptyFields(next).includes(field) ? [...new Set([...p, field])] : p.filter((f) => f !== field)));
  };

  /** what both inputs take: value, change, and the error state with its prompt (LoginField) */
  const inputProps = (field: Field) => {
    const wrong = prompted.includes(field);
    return {
      id: field,
      value: values[field],
      onChange: (e: ChangeEvent<HTMLInputElement>) => change(field, e.target.value),
      status: wrong ? ('error' as const) : undefined,
      'aria-required': true,
      'aria-invalid': wrong || undefined,
      'aria-describedby': wrong ? `${field}_help` : undefined,
    };
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const empty = emptyFields(values);
    setPrompted(empty);
    if (empty.length) return;
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
        <form
          noValidate
          autoComplete="on"
          onSubmit={(e) => void submit(e)}
          // the HTTP library is not part of the page's first paint: fetch it once the visitor starts
          onFocus={shell.warmUp}
        >
          <LoginField id="email" label={t('shell.login.email')} prompt={prompted.includes('email') ? t('shell.login.emailRequired') : undefined}>
            <Input {...inputProps('email')} prefix={<MailOutlined />} placeholder={t('shell.login.emailPlaceholder')} autoComplete="username" />
          </LoginField>
          <LoginField id="password" label={t('shell.login.password')} prompt={prompted.includes('password') ? t('shell.login.passwordRequired') : undefined}>
            <Password {...inputProps('password')} prefix={<LockOutlined />} placeholder={t('shell.login.passwordPlaceholder')} autoComplete="current-password" />
          </LoginField>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('shell.login.submit')}
          </Button>
        </form>
      </div>
    </main>
  );
}

/** One field as antd Form's vertical item draws it (label above, prompt below, 24px apart), from theme tokens. */
function LoginField({ id, label, prompt, children }: { id: string; label: string; prompt?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: prompt ? 0 : token.marginLG }}>
      <label htmlFor={id} style={{ display: 'block', padding: `0 0 ${token.paddingXS}px`, color: token.colorTextHeading, fontSize: token.fontSize, lineHeight: token.lineHeight }}>
        {label}
      </label>
      {children}
      {prompt && (
        <div id={`${id}_help`} role="alert" style={{ color: token.colorError, fontSize: token.fontSize, lineHeight: token.lineHeight, minHeight: token.marginLG }}>
          {prompt}
        </div>
      )}
    </div>
  );
}
