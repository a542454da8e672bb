/** The steps of one answer's trace: retrieval, prompt, model calls, completion, score. */
import { Descriptions, Table, Tag, Typography } from 'antd';
import type { RuntimeEnv } from '../../runtime/env.js';
import { pickHalf } from '../../widgets/display/bilingual.js';
import { money, type DecisionSignals, type Trace, type TraceAttempt, type TraceHit, type TraceScoreEntry } from './types.js';

const pre = { whiteSpace: 'pre-wrap' as const, wordBreak: 'break-word' as const, background: 'rgba(0,0,0,0.03)', padding: 8, borderRadius: 6, margin: 0, maxHeight: 360, overflow: 'auto' };
const num = (x: number | null | undefined) => (x === null || x === undefined ? '–' : String(Math.round(x * 1000) / 1000));

/** The decision model's signals, labelled as the hit-testing page labels its columns. */
const SIGNAL_LABELS: Array<[keyof DecisionSignals, string]> = [
  ['held_groups', 'text.hitTest.heldGroups'],
  ['held_words', 'text.hitTest.heldWords'],
  ['elsewhere_groups', 'text.hitTest.elsewhereGroups'],
  ['elsewhere_words', 'text.hitTest.elsewhereWords'],
  ['unsaid_words', 'text.hitTest.unsaidWords'],
];

type TraceDecision = NonNullable<NonNullable<Trace['retrieval']>['decision']>;

/** What decided: the deciding hit's confidence against the threshold, and the five signals behind it (traces written before they were recorded have none). */
function DecidedBy({ env, d }: { env: RuntimeEnv; d: TraceDecision }) {
  if (d.confidence === undefined || !d.signals) return null;
  const values = { confidence: num(d.confidence), threshold: num(d.threshold), rank: d.rank ?? '–' };
  const text = d.rank == null ? env.t('trace.noDecider') : env.t(d.answered && d.confidence < d.threshold ? 'trace.decidedByVector' : 'trace.decidedValue', values);
  const signals = d.signals;
  return (
    <div data-testid="trace-decided-by" style={{ margin: '8px 0' }}>
      <Descriptions size="small" column={1} items={[{ key: 'by', label: env.t('trace.decidedBy'), children: text }]} />
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 5 }}
        title={<Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>{env.t('trace.signals')}</Typography.Text>}
        items={SIGNAL_LABELS.map(([k, label]) => ({ key: k, label: env.t(label), children: <span data-testid={`trace-signal-${k}`}>{num(signals[k])}</span> }))}
      />
    </div>
  );
}

export function RetrievalStep({ env, trace }: { env: RuntimeEnv; trace: Trace }) {
  const r = trace.retrieval ?? {};
  const d = r.decision;
  const hits = r.hits ?? [];
  return (
    <div data-testid="trace-retrieval">
      <Descriptions size="small" column={{ xs: 1, md: 3 }} items={[
        { key: 'ranking', label: env.t('trace.ranking'), children: r.ranking ? `${r.ranking}${r.ranking_note ? ` — ${pickHalf(r.ranking_note, env.locale)}` : ''}` : '–' },
        { key: 'terms', label: env.t('trace.terms'), children: (r.terms ?? []).join(' · ') || '–' },
        { key: 'expanded', label: env.t('trace.expanded'), children: (r.expanded ?? []).join(' · ') || '–' },
        ...(d
          ? [
              { key: 'threshold', label: env.t('trace.threshold'), children: `${d.threshold} · top-k ${d.top_k}` },
              { key: 'answered', label: env.t('trace.answered'), children: d.answered ? env.t('trace.yes') : env.t('trace.declined') },
            ]
          : []),
      ]} />
      {d && <DecidedBy env={env} d={d} />}
      <Table<TraceHit>
        size="small"
        rowKey={(h) => `${h.rank}`}
        pagination={false}
        dataSource={hits}
        locale={{ emptyText: env.t('trace.noHits') }}
        scroll={{ x: 900 }}
        columns={[
          { key: 'rank', title: '#', render: (_, h) => (h.rank === d?.rank ? <Tag color="purple">{h.rank} · {env.t('trace.decidingTag')}</Tag> : h.rank), width: 90 },
          { key: 'title', title: env.t('trace.source'), render: (_, h) => `${env.t(`trace.sourceType.${h.source_type}`)} #${h.source_id} · ${h.title}`, width: 280 },
          { key: 'score', title: 'BM25', render: (_, h) => num(h.bm25 ?? h.score), width: 80 },
          { key: 'sim', title: env.t('trace.similarity'), render: (_, h) => num(h.similarity), width: 90 },
          { key: 'rel', title: env.t('trace.relevance'), render: (_, h) => num(h.relevance), width: 90 },
          { key: 'used', title: env.t('trace.used'), render: (_, h) => (h.relevant ? <Tag color="green">{env.t('trace.yes')}</Tag> : <Tag>{env.t('trace.no')}</Tag>), width: 80 },
          { key: 'text', title: env.t('trace.chunk'), render: (_, h) => <Typography.Text ellipsis={{ tooltip: h.text }} style={{ maxWidth: 360 }}>{h.text}</Typography.Text> },
        ]}
      />
    </div>
  );
}

export function PromptStep({ env, trace }: { env: RuntimeEnv; trace: Trace }) {
  if (!trace.prompt.length) return <Typography.Text type="secondary">{env.t('trace.noPrompt')}</Typography.Text>;
  return (
    <div data-testid="trace-prompt">
      {trace.prompt.map((m, i) => (
        <div key={i} style={{ marginBottom: 8 }}>
          <Tag>{m.role}</Tag>
          <pre style={pre}>{typeof m.content === 'string' ? m.content : JSON.stringify(m.content, null, 2)}</pre>
        </div>
      ))}
    </div>
  );
}

export function CallsStep({ env, trace }: { env: RuntimeEnv; trace: Trace }) {
  const s = trace.sampling ?? {};
  return (
    <div data-testid="trace-calls">
      <Descriptions size="small" column={{ xs: 1, md: 4 }} items={[
        { key: 'strategy', label: env.t('trace.strategy'), children: trace.strategy_name ? `${trace.strategy_name}${trace.divert_id ? ` · ${env.t('trace.split', { id: trace.divert_id })}` : ''}` : env.t('trace.noStrategy') },
        { key: 'temperature', label: env.t('trace.temperature'), children: num(s.temperature) },
        { key: 'top_p', label: 'top_p', children: num(s.top_p) },
        { key: 'max_tokens', label: env.t('trace.maxTokens'), children: s.max_tokens ?? '–' },
      ]} />
      <Table<TraceAttempt>
        size="small"
        rowKey={(_, i) => String(i)}
        pagination={false}
        dataSource={trace.attempts}
        locale={{ emptyText: env.t('trace.noCalls') }}
        columns={[
          { key: 'n', title: '#', render: (_, __, i) => i + 1, width: 50 },
          { key: 'server', title: env.t('trace.server'), render: (_, a) => `${a.serverName} (${a.model})` },
          { key: 'outcome', title: env.t('trace.outcome'), render: (_, a) => <Tag color={a.outcome === 'ok' ? 'green' : 'red'}>{env.t(`trace.attempt.${a.outcome}`)}</Tag>, width: 110 },
          { key: 'latency', title: env.t('trace.latency'), render: (_, a) => `${a.latencyMs} ms`, width: 100 },
          { key: 'cost', title: env.t('trace.cost'), render: (_, a) => money(a.cost), width: 100 },
          { key: 'error', title: env.t('trace.error'), render: (_, a) => pickHalf(a.error, env.locale) || '–' },
        ]}
      />
    </div>
  );
}

export function ScoreStep({ env, trace }: { env: RuntimeEnv; trace: Trace }) {
  const sc = trace.score;
  if (!sc) return <Typography.Text type="secondary">{env.t('trace.notScored')}</Typography.Text>;
  return (
    <div data-testid="trace-score">
      <Typography.Paragraph>
        <Tag color={sc.outcome === 'pass' ? 'success' : sc.outcome === 'fail' ? 'error' : 'warning'}>{env.t(`trace.runOutcome.${sc.outcome}`)}</Tag>
        {sc.score !== null && <Tag>{env.t('trace.score', { score: sc.score })}</Tag>}
        <span data-testid="trace-decision">{pickHalf(sc.decision, env.locale)}</span>
      </Typography.Paragraph>
      <Table<TraceScoreEntry>
        size="small"
        rowKey={(_, i) => String(i)}
        pagination={false}
        dataSource={sc.scores}
        columns={[
          { key: 'scorer', title: env.t('trace.scorer'), render: (_, e) => env.t(`trace.scorerName.${e.scorer}`), width: 130 },
          { key: 'score', title: env.t('trace.scoreCol'), render: (_, e) => num(e.score), width: 80 },
          { key: 'passed', title: env.t('trace.passed'), render: (_, e) => (e.passed === null ? '–' : e.passed ? '✓' : '✗'), width: 70 },
          { key: 'reason', title: env.t('trace.reason'), render: (_, e) => pickHalf(e.reason, env.locale) },
        ]}
      />
    </div>
  );
}

export { pre as preStyle };
