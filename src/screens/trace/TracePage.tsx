/**
 * scriptManage/trace/:id — one answer traced (langfuse's trace view is the model): the question,
 * then each step with its time — retrieval (the hits with their scores and the decision on them),
 * the prompt sent, the model calls (server, outcome, latency, cost, sampling), the completion and,
 * for a scored run, the scorer's decision. Opened from the playground, a run's result row and a
 * chat message (`GET ai-trace/detail`).
 */
import { Alert, Button, Card, Collapse, Descriptions, Empty, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { PageProps } from '../../runtime/route-config.js';
import { useShell } from '../../runtime/shell.js';
import { pickHalf } from '../../widgets/display/bilingual.js';
import { CallsStep, PromptStep, RetrievalStep, ScoreStep, preStyle } from './TraceSteps.js';
import { money, type Trace } from './types.js';

const OUTCOME_COLOR: Record<Trace['outcome'], string> = { ok: 'green', builtin: 'blue', fallback: 'orange', error: 'red' };

export default function TracePage({ params }: PageProps) {
  const env = useShell().env;
  const id = Number(params.id);
  const [trace, setTrace] = useState<Trace | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!Number.isInteger(id) || id < 1) return setError(env.t('trace.badId'));
    env.http.get<Trace>('ai-trace/detail', { id }).then(setTrace, (e: Error) => setError(e.message));
  }, [env, id]);

  if (error) return <Alert type="error" showIcon message={error} data-testid="trace-error" />;
  if (!trace) return <Spin />;
  const modelMs = trace.attempts.reduce((x, a) => x + a.latencyMs, 0);
  const step = (label: string, ms: number | null) => (
    <Space>
      <span>{label}</span>
      {ms !== null && <Tag>{ms} ms</Tag>}
    </Space>
  );
  return (
    <div data-testid="trace-page">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {env.t('trace.title', { id: trace.id })}
        </Typography.Title>
        <Button onClick={() => history.back()}>{env.t('trace.back')}</Button>
      </Space>
      <Card size="small" style={{ marginBottom: 12 }} data-testid="trace-summary">
        <Space wrap style={{ marginBottom: 8 }}>
          <Tag>{env.t(`trace.kind.${trace.kind}`)}</Tag>
          <Tag color={OUTCOME_COLOR[trace.outcome]}>{env.t(`trace.outcomeName.${trace.outcome}`)}</Tag>
          <Tag color="purple">{trace.responder === 'model' && trace.server_name ? `${trace.server_name} (${trace.model})` : env.t('trace.builtin')}</Tag>
          <Tag>{env.t('trace.latencyTag', { ms: trace.latency_ms })}</Tag>
          <Tag data-testid="trace-tokens">{env.t('trace.tokens', { prompt: trace.tokens_prompt, completion: trace.tokens_completion })}</Tag>
          <Tag color="gold" data-testid="trace-cost">{env.t('trace.costTag', { cost: money(trace.cost) })}</Tag>
        </Space>
        <Descriptions size="small" column={{ xs: 1, md: 3 }} items={[
          { key: 'shop', label: env.t('trace.shop'), children: trace.shop_name ? `${trace.shop_id} · ${trace.shop_name}` : '–' },
          { key: 'channel', label: env.t('trace.channel'), children: trace.channel ?? '–' },
          { key: 'assistant', label: env.t('trace.assistant'), children: trace.assistant_name ?? '–' },
          { key: 'at', label: env.t('trace.at'), children: new Date(trace.created_at).toLocaleString(env.locale) },
          { key: 'kept', label: env.t('trace.kept'), children: env.t('trace.keptDays', { days: trace.retention_days }) },
        ]} />
        {trace.error && <Alert style={{ marginTop: 8 }} type={trace.outcome === 'error' || trace.outcome === 'fallback' ? 'warning' : 'info'} showIcon message={pickHalf(trace.error, env.locale)} />}
      </Card>
      <Collapse
        defaultActiveKey={['question', 'retrieval', 'calls', 'completion', 'score']}
        items={[
          { key: 'question', label: env.t('trace.question'), children: <pre style={preStyle} data-testid="trace-question">{trace.question}</pre> },
          { key: 'retrieval', label: step(env.t('trace.retrieval'), trace.retrieval_ms), children: <RetrievalStep env={env} trace={trace} /> },
          { key: 'prompt', label: env.t('trace.prompt'), children: <PromptStep env={env} trace={trace} /> },
          { key: 'calls', label: step(env.t('trace.calls', { n: trace.attempts.length }), trace.attempts.length ? modelMs : null), children: <CallsStep env={env} trace={trace} /> },
          {
            key: 'completion',
            label: env.t('trace.completion'),
            children: trace.completion ? <pre style={preStyle} data-testid="trace-completion">{trace.completion}</pre> : <Empty description={env.t('trace.noCompletion')} />,
          },
          ...(trace.kind === 'run' ? [{ key: 'score', label: env.t('trace.scoreStep'), children: <ScoreStep env={env} trace={trace} /> }] : []),
        ]}
      />
    </div>
  );
}
