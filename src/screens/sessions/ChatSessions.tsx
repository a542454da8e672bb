/** session/chat: chat sessions beside the conversation, messages drawn by message type. */
import { Avatar, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { enumColor, enumLabel } from '../../contract/enums.js';
import type { PageProps } from '../../runtime/route-config.js';
import { useShell } from '../../runtime/shell.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { ActionSpec } from '../../runtime/types.js';
import type { ChatMessage, ChatSession } from './api.js';
import { MESSAGE_TYPE, bubbleKind } from './enums.js';
import { fmtClock, fmtTime } from './format.js';
import { ImportToolbar, importActions } from './ImportToolbar.js';
import { SessionViewer } from './SessionViewer.js';
import { BatchStatusAction, TrainAction } from './SchemaActions.js';

const CHANNELS = ['web', 'whatsapp', 'messenger', 'instagram', 'email_widget'];
const COLORS = { customer: '#f0f0f0', ai: '#e6f4ff', human: '#f6ffed' } as const;

function Bubble({ m, env }: { m: ChatMessage; env: RuntimeEnv }) {
  const kind = bubbleKind(m.msg_type);
  const tag = (
    <Tag color={enumColor(MESSAGE_TYPE, m.msg_type)} style={{ marginInlineEnd: 0 }}>
      {enumLabel(MESSAGE_TYPE, m.msg_type, env.locale)}
    </Tag>
  );
  if (kind === 'event') {
    return (
      <div data-testid="msg" data-type={m.msg_type} style={{ textAlign: 'center', margin: '10px 0' }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {tag} {m.content} · {fmtClock(m.sent_at)}
        </Typography.Text>
      </div>
    );
  }
  if (kind === 'card') {
    return (
      <div data-testid="msg" data-type={m.msg_type} style={{ display: 'flex', justifyContent: 'center', margin: '10px 0' }}>
        <Card size="small" style={{ maxWidth: 420, borderStyle: 'dashed' }}>
          <Space direction="vertical" size={2}>
            {tag}
            <Typography.Text>{m.content}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {fmtClock(m.sent_at)}
            </Typography.Text>
          </Space>
        </Card>
      </div>
    );
  }
  const right = kind !== 'customer';
  return (
    <div data-testid="msg" data-type={m.msg_type} style={{ display: 'flex', flexDirection: right ? 'row-reverse' : 'row', gap: 8, margin: '10px 0' }}>
      <Avatar style={{ flex: 'none', background: kind === 'customer' ? '#8c8c8c' : kind === 'ai' ? '#1677ff' : '#52c41a' }}>
        {(m.sender || '?').slice(0, 1).toUpperCase()}
      </Avatar>
      <div style={{ maxWidth: '70%', textAlign: right ? 'right' : 'left' }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {m.sender} · {fmtClock(m.sent_at)} {tag}
          {m.policy_id ? <Tag style={{ marginInlineStart: 4 }}>{env.t('session.viewer.policy', { id: m.policy_id })}</Tag> : null}
          {m.trace_id ? (
            <a href={`/intelligent_text/scriptManage/trace/${m.trace_id}`} target="_blank" rel="noopener noreferrer" style={{ marginInlineStart: 4 }} data-testid="msg-trace">
              {env.t('session.viewer.trace')}
            </a>
          ) : null}
        </Typography.Text>
        <div
          style={{
            background: COLORS[kind],
            borderRadius: 12,
            padding: '8px 12px',
            marginTop: 4,
            whiteSpace: 'pre-wrap',
            textAlign: 'left',
            color: 'rgba(0,0,0,0.88)',
          }}
        >
          {m.content}
        </div>
      </div>
    </div>
  );
}

/** ongoing / ended, as the server derives it from the transcript's end */
function StatusTag({ status, env }: { status: ChatSession['status']; env: RuntimeEnv }) {
  return (
    <Tag color={status === 'ended' ? 'default' : 'processing'} data-testid="session-status" data-status={status}>
      {env.t(status === 'ended' ? 'session.viewer.statusEnded' : 'session.viewer.ongoing')}
    </Tag>
  );
}

const IMPORT_ACTIONS: ActionSpec[] = [
  ...importActions('session', 'session.chat', 'intelligent_text.text.session.chat.import'),
  // shop/sessionCategory is hidden from the menu (spec section 2): reached from here, with its own key
  {
    key: 'categories',
    type: 'navigate',
    label: 'session.category.title',
    to: '/intelligent_text/shop/sessionCategory',
    permission: 'intelligent_text.text.shop.session_category',
  },
];

export default function ChatSessions(_: PageProps) {
  const env = useShell().env;
  return (
    <SessionViewer<ChatSession, ChatSession & { messages: ChatMessage[] }>
      testId="chat-sessions"
      title={env.t('session.chat.title')}
      listApi="session/list"
      detailApi="session/detail"
      extra={{
        key: 'channel',
        label: env.t('session.viewer.channel'),
        options: CHANNELS.map((c) => ({ value: c, label: env.t(`session.channel.${c}`) })),
      }}
      toolbar={({ shopId, reload }) => <ImportToolbar env={env} actions={IMPORT_ACTIONS} shopId={shopId} reload={reload} />}
      detailActions={(d) => <TrainAction session={d} />}
      batch={({ ids, done }) => <BatchStatusAction ids={ids} done={done} />}
      renderItem={(s) => (
        <div style={{ width: '100%', minWidth: 0 }}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text strong>{s.customer_name || s.customer_email}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="session-started">
              {fmtTime(s.started_at)}
            </Typography.Text>
          </Space>
          <div>
            <Tag>{env.t(`session.channel.${s.channel}`)}</Tag>
            <StatusTag status={s.status} env={env} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="session-shop">
              {s.shop_name}
            </Typography.Text>
          </div>
          <Typography.Text ellipsis style={{ fontSize: 12, display: 'block' }}>
            {s.last_message}
          </Typography.Text>
        </div>
      )}
      renderDetail={(d) => (
        <div data-testid="chat-detail">
          <Descriptions size="small" column={3} style={{ marginBottom: 8 }}>
            <Descriptions.Item label={env.t('session.viewer.customer')}>
              {d.customer_name} {d.customer_email && `<${d.customer_email}>`}
            </Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.shop')}>{d.shop_name}</Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.channel')}>{env.t(`session.channel.${d.channel}`)}</Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.started')}>{fmtTime(d.started_at)}</Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.status')}>
              <StatusTag status={d.status} env={env} /> {d.ended_at ? fmtTime(d.ended_at) : null}
            </Descriptions.Item>
            <Descriptions.Item label="ID">
              {d.id} · {env.t('session.viewer.messages', { count: d.messages.length })}
            </Descriptions.Item>
          </Descriptions>
          <div style={{ padding: '0 8px' }}>
            {d.messages.map((m) => (
              <Bubble key={m.id} m={m} env={env} />
            ))}
          </div>
        </div>
      )}
    />
  );
}
