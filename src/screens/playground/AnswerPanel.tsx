/** One configuration's answers: the turns (the last one streaming), who answered, cost, and the knowledge it retrieved. */
import { Alert, Card, Empty, List, Space, Tag, Typography } from 'antd';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { Citation } from './stream.js';
import type { Turn } from './use-run.js';

export function sourceLabel(env: RuntimeEnv, type: string): string {
  const key = `config.playground.source.${type}`;
  const s = env.t(key);
  return s === key ? type : s;
}

export function CitationList({ env, citations, testId }: { env: RuntimeEnv; citations: Citation[]; testId?: string }) {
  return (
    <List
      size="small"
      data-testid={testId}
      dataSource={citations}
      locale={{ emptyText: env.t('config.playground.noKnowledge') }}
      renderItem={(c) => (
        <List.Item>
          <Space size={4} wrap>
            <Tag>{sourceLabel(env, c.source_type)}</Tag>
            <span>
              #{c.source_id} {c.title}
            </span>
            <Tag color="blue">{env.t('config.playground.score', { score: c.score.toFixed(3) })}</Tag>
          </Space>
        </List.Item>
      )}
    />
  );
}

/** Who answers: the server the stream named (a fallback server when the first failed), else the model's name. */
function Responder({ env, turn }: { env: RuntimeEnv; turn: Turn }) {
  if (turn.responder === 'builtin') return <Tag color="green">{env.t('config.playground.responderBuiltin')}</Tag>;
  if (turn.responder === 'model') {
    const who = turn.server ? `${turn.server.name} · ${turn.server.model}` : turn.model || '…';
    return <Tag color="purple">{env.t('config.playground.responderModel', { model: who })}</Tag>;
  }
  return null;
}

const money = (x: number) => (x < 0.01 && x > 0 ? x.toFixed(6) : x.toFixed(4));

export function AnswerPanel({ env, side, title, turns }: { env: RuntimeEnv; side: 'a' | 'b'; title: string; turns: Turn[] }) {
  const last = turns.at(-1);
  return (
    <Card size="small" title={title} data-testid={`playground-panel-${side}`}>
      {!turns.length ? (
        <Empty description={env.t('config.playground.empty')} />
      ) : (
        <div data-testid={`playground-result-${side}`}>
          {turns.map((t, i) => (
            <div key={i} style={{ marginBottom: 12 }}>
              <Typography.Paragraph style={{ textAlign: 'right', marginBottom: 4 }}>
                <Typography.Text style={{ background: 'rgba(0,0,0,0.04)', padding: '4px 10px', borderRadius: 8 }}>{t.question}</Typography.Text>
              </Typography.Paragraph>
              <div
                data-testid={i === turns.length - 1 ? `playground-answer-${side}` : undefined}
                data-status={t.status}
                style={{ background: '#e6f4ff', padding: 12, borderRadius: 8, color: 'rgba(0,0,0,0.88)', whiteSpace: 'pre-wrap' }}
              >
                {t.text || (t.status === 'streaming' ? env.t('config.playground.streaming') : '')}
              </div>
              {t.note && <Alert type="warning" showIcon style={{ marginTop: 6 }} message={t.note} data-testid={`playground-note-${side}`} />}
              {t.status === 'error' && <Alert type="error" showIcon style={{ marginTop: 6 }} message={env.t('config.playground.failed', { msg: t.error })} />}
            </div>
          ))}
          {last && last.status === 'streaming' && last.responder && (
            <Space size={4} wrap data-testid={`playground-answering-${side}`}>
              <Responder env={env} turn={last} />
            </Space>
          )}
          {last && last.status !== 'streaming' && (
            <Space size={4} wrap data-testid={`playground-meta-${side}`}>
              <Responder env={env} turn={last} />
              {last.latencyMs !== null && <Tag>{env.t('config.playground.latency', { ms: last.latencyMs })}</Tag>}
              <Tag>
                {last.tokens
                  ? env.t('config.playground.tokens', { prompt: last.tokens.prompt, completion: last.tokens.completion })
                  : env.t('config.playground.noTokens')}
              </Tag>
              {last.cost !== null && (
                <Tag color="gold" data-testid={`playground-cost-${side}`}>
                  {env.t('config.playground.cost', { cost: money(last.cost) })}
                </Tag>
              )}
              {last.traceId && (
                <a href={`/intelligent_text/scriptManage/trace/${last.traceId}`} target="_blank" rel="noopener noreferrer" data-testid={`playground-trace-${side}`}>
                  {env.t('config.playground.trace')}
                </a>
              )}
            </Space>
          )}
          <Typography.Title level={5} style={{ marginTop: 12 }}>
            {env.t('config.playground.knowledge')}
          </Typography.Title>
          <CitationList env={env} citations={last?.citations ?? []} testId={`playground-citations-${side}`} />
        </div>
      )}
    </Card>
  );
}
