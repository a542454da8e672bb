/** session/voice: calls beside their transcript (speaker, offset, text). */
import { Descriptions, Tag, Timeline, Typography } from 'antd';
import { enumColor, enumLabel } from '../../contract/enums.js';
import type { PageProps } from '../../runtime/route-config.js';
import { useShell } from '../../runtime/shell.js';
import type { Utterance, VoiceSession } from './api.js';
import { CALL_RESULT } from './enums.js';
import { fmtOffset, fmtTime } from './format.js';
import { SessionViewer } from './SessionViewer.js';

const SPEAKER_COLOR: Record<string, string> = { customer: 'gray', ai: 'blue', agent: 'green' };

export default function VoiceSessions(_: PageProps) {
  const env = useShell().env;
  return (
    <SessionViewer<VoiceSession, VoiceSession & { utterances: Utterance[] }>
      testId="voice-sessions"
      title={env.t('session.voice.title')}
      listApi="voice-session/list"
      detailApi="voice-session/detail"
      extra={{
        key: 'direction',
        label: env.t('session.viewer.direction'),
        options: ['inbound', 'outbound'].map((d) => ({ value: d, label: env.t(`session.direction.${d}`) })),
      }}
      renderItem={(s) => (
        <div style={{ width: '100%', minWidth: 0 }}>
          <Typography.Text strong>{s.caller}</Typography.Text>{' '}
          <Tag>{env.t(`session.direction.${s.direction}`)}</Tag>
          <Tag color={enumColor(CALL_RESULT, s.result)}>{enumLabel(CALL_RESULT, s.result, env.locale)}</Tag>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {s.shop_name} · {fmtTime(s.started_at)} · {env.t('session.viewer.duration', { sec: s.duration_sec })}
            </Typography.Text>
          </div>
          <Typography.Text ellipsis style={{ fontSize: 12, display: 'block' }}>
            {s.summary}
          </Typography.Text>
        </div>
      )}
      renderDetail={(d) => (
        <div data-testid="voice-detail">
          <Descriptions size="small" column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={env.t('session.viewer.caller')}>{d.caller}</Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.callee')}>{d.callee}</Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.shop')}>{d.shop_name}</Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.started')}>{fmtTime(d.started_at)}</Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.result')}>{enumLabel(CALL_RESULT, d.result, env.locale)}</Descriptions.Item>
            <Descriptions.Item label={env.t('session.viewer.summary')}>{d.summary}</Descriptions.Item>
          </Descriptions>
          <Timeline
            items={d.utterances.map((u) => ({
              key: u.id,
              color: SPEAKER_COLOR[u.speaker] ?? 'gray',
              children: (
                <div data-testid="utterance">
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {fmtOffset(u.offset_ms)} · {env.t(`session.speaker.${u.speaker}`)}
                  </Typography.Text>
                  <div style={{ whiteSpace: 'pre-wrap' }}>{u.content}</div>
                </div>
              ),
            }))}
          />
        </div>
      )}
    />
  );
}
