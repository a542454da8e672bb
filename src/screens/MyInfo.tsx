/**
 * /my-info ("my info", spec section 2's other page groups): the signed-in account — name,
 * email, roles, sign-in times, how many keys it holds in each module, its live sessions — and
 * its own latest audit events, with the ways to change the password and end sessions. One
 * call (`GET user/profile`); a bespoke screen because it is about the caller, not a resource.
 */
import { Button, Card, Descriptions, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useShell } from '../runtime/shell.js';
import type { ProfileReply } from '../contract/replies/session.js';

type Profile = ProfileReply;

const when = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '-');

export default function MyInfo() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { http } = useShell().env;
  const [data, setData] = useState<Profile | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    http
      .get<Profile>('user/profile')
      .then(setData)
      .catch(() => undefined) // the client shows the message
      .finally(() => setLoading(false));
  }, [http]);

  // an action code in words where the locale has them ("login" → 登录), else the code
  const actionText = (a: string) => (i18n.exists(`shell.profile.actions.${a}`) ? t(`shell.profile.actions.${a}`) : a);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="my-info">
      <Card
        title={t('shell.profile.title')}
        loading={loading && !data}
        extra={
          <Space>
            <Button onClick={() => navigate('/change-password')}>{t('shell.header.changePassword')}</Button>
            <Button onClick={() => navigate('/my-sessions')}>{t('shell.header.mySessions')}</Button>
          </Space>
        }
      >
        {data && (
          <Descriptions column={{ xs: 1, md: 2 }} bordered size="middle">
            <Descriptions.Item label={t('shell.profile.name')}>{data.name || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('shell.profile.email')}>
              <span data-testid="my-info-email">{data.email}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('shell.profile.roles')}>
              {data.super_admin && <Tag color="gold">{t('shell.profile.superAdmin')}</Tag>}
              {data.roles.filter((r) => !r.is_super_admin).map((r) => <Tag key={r.id}>{r.name}</Tag>)}
              {!data.super_admin && !data.roles.length ? t('shell.profile.noRole') : null}
            </Descriptions.Item>
            <Descriptions.Item label={t('shell.profile.sessions')}>{data.sessions}</Descriptions.Item>
            <Descriptions.Item label={t('shell.profile.createdAt')}>{when(data.created_at)}</Descriptions.Item>
            <Descriptions.Item label={t('shell.profile.lastLogin')}>{when(data.last_login_at)}</Descriptions.Item>
            <Descriptions.Item label={t('shell.profile.keys')} span={2}>
              <Space wrap data-testid="my-info-modules">
                {data.modules.length
                  ? data.modules.map((m) => (
                      <Tag key={m.module}>
                        {i18n.exists(`shell.profile.modules.${m.module}`) ? t(`shell.profile.modules.${m.module}`) : m.module}: {m.keys}
                      </Tag>
                    ))
                  : t('shell.profile.noKeys')}
              </Space>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card title={t('shell.profile.recent')}>
        <Typography.Paragraph type="secondary">{t('shell.profile.recentHint')}</Typography.Paragraph>
        <Table
          rowKey="id"
          size="middle"
          loading={loading}
          pagination={false}
          dataSource={data?.recent ?? []}
          data-testid="my-info-recent"
          columns={[
            { title: t('shell.profile.time'), dataIndex: 'created_at', render: when },
            { title: t('shell.profile.action'), dataIndex: 'action', render: (a: string) => <Tag>{actionText(a)}</Tag> },
            { title: t('shell.profile.resource'), dataIndex: 'resource' },
            { title: t('shell.profile.target'), dataIndex: 'target_id', render: (v: string | null) => v ?? '-' },
            { title: t('shell.profile.ip'), dataIndex: 'ip' },
          ]}
        />
      </Card>
    </Space>
  );
}
