/** Bundle baseline for /login: a sign-in card hand-written in antd (Card, Form, Input, Password, Button, Typography, icons). */
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { Button, Card, ConfigProvider, Form, Input, Typography } from 'antd';
import { createRoot } from 'react-dom/client';
import { fail, renderStart, waitForCount } from './measure.js';

function LoginPage() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', paddingTop: 120 }}>
      <Card style={{ width: 380 }}>
        <Typography.Title level={3}>Sign in</Typography.Title>
        <Form layout="vertical" onFinish={() => undefined}>
          <Form.Item name="email" label="Email" rules={[{ required: true, message: 'Enter your email' }]}>
            <Input prefix={<MailOutlined />} autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label="Password" rules={[{ required: true, message: 'Enter your password' }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block>
            Sign in
          </Button>
        </Form>
      </Card>
    </div>
  );
}

try {
  renderStart();
  createRoot(document.getElementById('root')!).render(
    <ConfigProvider>
      <LoginPage />
    </ConfigProvider>,
  );
  void waitForCount('button[type="submit"]', 1);
} catch (err) {
  fail(err);
}
