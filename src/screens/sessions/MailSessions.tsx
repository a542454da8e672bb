/** session/mail: mail threads; each mail shows its direction type and its flags. */
import { Card, Space, Tag, Typography } from 'antd';
import { enumColor, enumLabel } from '../../contract/enums.js';
import type { PageProps } from '../../runtime/route-config.js';
import { useShell } from '../../runtime/shell.js';
import type { Mail, MailSession } from './api.js';
import { MAIL_DIRECTION, isIncomingMail } from './enums.js';
import { fmtTime } from './format.js';
import { ImportToolbar, importActions } from './ImportToolbar.js';
import { SessionViewer } from './SessionViewer.js';

const IMPORT_ACTIONS = importActions('mail-session', 'session.mail', 'intelligent_text.text.session.mail.import');

export default function MailSessions(_: PageProps) {
  const env = useShell().env;
  const flag = (on: number, key: string, color: string) => (on === 1 ? <Tag color={color}>{env.t(key)}</Tag> : null);
  return (
    <SessionViewer<MailSession, MailSession & { mails: Mail[] }>
      testId="mail-sessions"
      title={env.t('session.mail.title')}
      listApi="mail-session/list"
      detailApi="mail-session/detail"
      mailAccounts
      toolbar={({ shopId, reload }) => <ImportToolbar env={env} actions={IMPORT_ACTIONS} shopId={shopId} reload={reload} />}
      renderItem={(s) => (
        <div style={{ width: '100%', minWidth: 0 }}>
          <Typography.Text strong ellipsis style={{ display: 'block' }}>
            {s.subject}
          </Typography.Text>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text style={{ fontSize: 12 }}>{s.customer_email}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {fmtTime(s.last_at)}
            </Typography.Text>
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {s.shop_name} · {env.t('session.viewer.mails', { count: s.mail_count })}
          </Typography.Text>
        </div>
      )}
      renderDetail={(d) => (
        <div data-testid="mail-detail">
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {d.subject}
          </Typography.Title>
          <Typography.Text type="secondary">
            {d.shop_name} · {d.customer_email} · {env.t('session.viewer.mails', { count: d.mails.length })}
          </Typography.Text>
          {d.mails.map((m) => {
            const incoming = isIncomingMail(m.direction_type);
            return (
              <div key={m.id} data-testid="mail" style={{ display: 'flex', justifyContent: incoming ? 'flex-start' : 'flex-end', marginTop: 12 }}>
                <Card
                  size="small"
                  style={{ width: '80%', borderInlineStart: `3px solid ${incoming ? '#8c8c8c' : '#1677ff'}` }}
                  title={
                    <Space wrap size={4}>
                      <Tag color={enumColor(MAIL_DIRECTION, m.direction_type)}>{enumLabel(MAIL_DIRECTION, m.direction_type, env.locale)}</Tag>
                      {flag(m.is_read, 'session.viewer.flagRead', 'default')}
                      {flag(m.is_ai, 'session.viewer.flagAi', 'blue')}
                      {flag(m.has_attachment, 'session.viewer.flagAttachment', 'orange')}
                      <Typography.Text style={{ fontWeight: 'normal' }}>{m.subject}</Typography.Text>
                    </Space>
                  }
                  extra={<Typography.Text type="secondary">{fmtTime(m.sent_at)}</Typography.Text>}
                >
                  <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                    {env.t('session.viewer.from')}: {m.from_addr} → {env.t('session.viewer.to')}: {m.to_addr}
                  </Typography.Text>
                  <div style={{ whiteSpace: 'pre-wrap', marginTop: 6 }}>{m.body}</div>
                </Card>
              </div>
            );
          })}
        </div>
      )}
    />
  );
}
