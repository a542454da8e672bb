/**
 * /my-sessions: the signed-in account's live sessions (address, browser, signed in, last used),
 * with revoke per session and "sign out everywhere else". Revoking this one signs out.
 */
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { RevokedReply, SessionItem, SessionsReply } from '../contract/replies/session.js';
import { useShell } from '../runtime/shell.js';

const when = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss');

export default function MySessions() {
  const { t } = useTranslation();
  const shell = useShell();
  const { http, notify, confirm } = shell.env;
  const navigate = useNavigate();
  const [data, setData] = useState<SessionsReply | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setData(await http.get<SessionsReply>('user/sessions'));
    } catch {
      /* message shown by the client */
    } finally {
      setLoading(false);
    }
  }, [http]);

  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (s: SessionItem) => {
    if (!(await confirm(s.current ? t('shell.sessions.revokeCurrentConfirm') : t('shell.sessions.revokeConfirm'), { danger: true }))) return;
    try {
      await http.post('user/session-revoke', { id: s.id });
    } catch {
      return; // message shown by the client
    }
    if (s.current) {
      shell.forgetSession();
      navigate('/login', { replace: true });
      return;
    }
    notify.success(t('shell.sessions.revoked'));
    await load();
  };

  const revokeOthers = async () => {
    if (!(await confirm(t('shell.sessions.revokeOthersConfirm'), { danger: true }))) return;
    try {
      const r = await http.post<RevokedReply>('user/session-revoke-others');
      notify.success(t('shell.sessions.revokedOthers', { count: r.revoked }));
    } catch {
      return; // message shown by the client
    }
    await load();
  };

  const others = (data?.list ?? []).filter((s) => !s.current).length;
  return (
    <Card
      title={t('shell.sessions.title')}
      data-testid="my-sessions"
      extra={
        <Button danger disabled={others === 0} onClick={revokeOthers} data-testid="revoke-other-sessions">
          {t('shell.sessions.revokeOthers')}
        </Button>
      }
    >
      {data && (
        <Typography.Paragraph type="secondary">
          {t('shell.sessions.rules', { idle: data.idle_minutes, max: data.max_sessions })}
        </Typography.Paragraph>
      )}
      <Table<SessionItem>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={data?.list ?? []}
        pagination={false}
        columns={[
          {
            title: t('shell.sessions.device'),
            dataIndex: 'user_agent',
            render: (ua: string, s) => (
              <Space>
                <Typography.Text ellipsis style={{ maxWidth: 360 }} title={ua}>
                  {ua || t('shell.sessions.unknownDevice')}
                </Typography.Text>
                {s.current && <Tag color="green">{t('shell.sessions.current')}</Tag>}
              </Space>
            ),
          },
          { title: t('shell.sessions.ip'), dataIndex: 'ip' },
          { title: t('shell.sessions.signedIn'), dataIndex: 'created_at', render: when },
          { title: t('shell.sessions.lastSeen'), dataIndex: 'last_seen_at', render: when },
          {
            title: t('shell.sessions.action'),
            key: 'action',
            render: (_: unknown, s) => (
              <Button type="link" danger onClick={() => revoke(s)} data-testid={`revoke-session-${s.id}`}>
                {s.current ? t('shell.sessions.signOutHere') : t('shell.sessions.revoke')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
