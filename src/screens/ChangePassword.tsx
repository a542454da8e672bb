/** /change-password: old and new password; the server revokes the account's other sessions. */
import { Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PASSWORD_MIN_LENGTH } from '../contract/password.js';
import { useShell } from '../runtime/shell.js';

interface Values {
  old_password: string;
  new_password: string;
  confirm: string;
}

export default function ChangePassword() {
  const { t } = useTranslation();
  const shell = useShell();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const submit = async (v: Values) => {
    setBusy(true);
    try {
      await shell.changePassword(v.old_password, v.new_password);
      shell.env.notify.success(t('shell.changePassword.success'));
      navigate('/home');
    } catch {
      /* message shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('shell.changePassword.title')} style={{ maxWidth: 480 }} data-testid="change-password">
      <Form<Values> layout="vertical" onFinish={submit}>
        <Form.Item name="old_password" label={t('shell.changePassword.old')} rules={[{ required: true, message: t('shell.changePassword.oldRequired') }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="new_password"
          label={t('shell.changePassword.new')}
          rules={[
            { required: true, message: t('shell.changePassword.newRequired') },
            { min: PASSWORD_MIN_LENGTH, message: t('shell.changePassword.minLength', { min: PASSWORD_MIN_LENGTH }) },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('shell.changePassword.confirm')}
          dependencies={['new_password']}
          rules={[
            { required: true, message: t('shell.changePassword.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('new_password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('shell.changePassword.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('shell.changePassword.submit')}
        </Button>
      </Form>
    </Card>
  );
}
