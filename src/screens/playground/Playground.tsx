/**
 * scriptManage/playground: ask a question as a customer of a shop and watch the answer stream
 * (`POST prompt/playground-stream`), with the knowledge it retrieved, its scores, tokens and
 * latency. With no model server the built-in responder answers (server/ai/answer.ts).
 * Compare debug (the client flag `allowCompareDebug`, kept in this browser): two configurations
 * answer the same question side by side, and the difference in their knowledge is shown.
 */
import { Button, Card, Col, Form, Input, Radio, Row, Select, Space, Switch, Typography, type SelectProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { PageProps } from '../../runtime/route-config.js';
import { useShell } from '../../runtime/shell.js';
import { AnswerPanel, CitationList } from './AnswerPanel.js';
import { BUILTIN, ConfigFields, STRATEGY, type Options, type SideConfig } from './ConfigFields.js';
import { diffKnowledge } from './diff.js';
import type { PlaygroundBody } from './stream.js';
import { useRun } from './use-run.js';
import type { ShopOption } from '../../contract/replies/shops.js';

const COMPARE_KEY = 'playground.allowCompareDebug';

interface FormValues {
  shop_id: number;
  channel: 'chat' | 'email';
  message: string;
  a: SideConfig;
  b: SideConfig;
}

const readFlag = () => {
  try {
    return globalThis.localStorage?.getItem(COMPARE_KEY) === '1';
  } catch {
    return false;
  }
};

export default function Playground(_: PageProps) {
  const env = useShell().env;
  const [form] = Form.useForm<FormValues>();
  const [options, setOptions] = useState<Options>({ assistants: [], prompts: [], model_servers: [] });
  const [shops, setShops] = useState<Array<{ id: number; label: string }>>([]);
  const [compare, setCompare] = useState(readFlag);
  const a = useRun();
  const b = useRun();

  useEffect(() => {
    env.http.get<Options>('prompt/playground-options').then(setOptions, () => undefined);
    env.http.get<ShopOption[]>('session-area/shop-options', { limit: 500 }).then(setShops, () => undefined);
  }, [env.http]);

  const toggleCompare = (on: boolean) => {
    setCompare(on);
    try {
      globalThis.localStorage?.setItem(COMPARE_KEY, on ? '1' : '0');
    } catch {
      /* private mode: the flag lasts for this page only */
    }
  };

  const send = (v: FormValues) => {
    const body = (s: SideConfig): PlaygroundBody => ({
      shop_id: v.shop_id,
      channel: v.channel,
      message: v.message.trim(),
      assistant_id: s?.assistant_id ?? null,
      prompt_id: s?.prompt_id ?? null,
      model_server_id: s?.model_server_id && s.model_server_id !== BUILTIN && s.model_server_id !== STRATEGY ? s.model_server_id : null,
      use_strategy: s?.model_server_id === STRATEGY,
      temperature: s?.temperature ?? null,
      top_p: s?.top_p ?? null,
      max_tokens: s?.max_tokens ?? null,
    });
    void a.send(body(v.a));
    if (compare) void b.send(body(v.b));
  };

  const busy = a.busy || (compare && b.busy);
  const diff = useMemo(
    () => (compare && a.last?.status === 'done' && b.last?.status === 'done' ? diffKnowledge(a.last.citations, b.last.citations) : null),
    [compare, a.last, b.last],
  );
  const half = compare ? 12 : 24;

  return (
    <div data-testid="prompt-playground">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {env.t('config.playground.title')}
        </Typography.Title>
        <Space>
          <span>{env.t('config.playground.compare')}</span>
          <Switch checked={compare} onChange={toggleCompare} aria-label={env.t('config.playground.compare')} data-testid="playground-compare" />
        </Space>
      </Space>
      <Typography.Paragraph type="secondary">{env.t(compare ? 'config.playground.compareHelp' : 'config.playground.intro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={send} initialValues={{ channel: 'chat' }}>
        <Card size="small" style={{ marginBottom: 12 }}>
          <Row gutter={12}>
            <Col xs={24} md={16}>
              <Form.Item name="shop_id" label={env.t('config.playground.shop')} rules={[{ required: true, message: env.t('config.playground.pick') }]}>
                <ShopSelect showSearch optionFilterProp="label" data-testid="playground-shop" options={shops.map((s) => ({ value: s.id, label: s.label }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="channel" label={env.t('config.common.channel')}>
                <Radio.Group options={[{ value: 'chat', label: env.t('config.common.chat') }, { value: 'email', label: env.t('config.common.email') }]} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={12}>
            <Col xs={24} md={half}>
              {compare && <Typography.Text strong>{env.t('config.playground.configA')}</Typography.Text>}
              <ConfigFields env={env} options={options} side="a" />
            </Col>
            {compare && (
              <Col xs={24} md={12}>
                <Typography.Text strong>{env.t('config.playground.configB')}</Typography.Text>
                <ConfigFields env={env} options={options} side="b" />
              </Col>
            )}
          </Row>
          <Form.Item
            name="message"
            label={env.t('config.playground.message')}
            rules={[{ required: true, whitespace: true, max: 2000, message: env.t('config.playground.pick') }]}
          >
            <Input.TextArea rows={3} placeholder={env.t('config.playground.messagePh')} data-testid="playground-message" />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="playground-send">
              {env.t('config.playground.send')}
            </Button>
            {busy && (
              <Button onClick={() => (a.stop(), b.stop())} data-testid="playground-stop">
                {env.t('config.playground.stop')}
              </Button>
            )}
            <Button onClick={() => (a.clear(), b.clear())} disabled={busy}>
              {env.t('config.playground.clear')}
            </Button>
          </Space>
        </Card>
      </Form>
      <Row gutter={12}>
        <Col xs={24} lg={half}>
          <AnswerPanel env={env} side="a" title={env.t(compare ? 'config.playground.configA' : 'config.playground.answer')} turns={a.turns} />
        </Col>
        {compare && (
          <Col xs={24} lg={12}>
            <AnswerPanel env={env} side="b" title={env.t('config.playground.configB')} turns={b.turns} />
          </Col>
        )}
      </Row>
      {diff && (
        <Card size="small" title={env.t('config.playground.diff')} style={{ marginTop: 12 }} data-testid="playground-diff">
          <Row gutter={12}>
            <Col xs={24} md={8}>
              <Typography.Text strong>{env.t('config.playground.onlyA', { n: diff.onlyA.length })}</Typography.Text>
              <CitationList env={env} citations={diff.onlyA} testId="playground-diff-only-a" />
            </Col>
            <Col xs={24} md={8}>
              <Typography.Text strong>{env.t('config.playground.both', { n: diff.both.length })}</Typography.Text>
              <CitationList env={env} citations={diff.both.map((x) => x.a)} testId="playground-diff-both" />
            </Col>
            <Col xs={24} md={8}>
              <Typography.Text strong>{env.t('config.playground.onlyB', { n: diff.onlyB.length })}</Typography.Text>
              <CitationList env={env} citations={diff.onlyB} testId="playground-diff-only-b" />
            </Col>
          </Row>
        </Card>
      )}
    </div>
  );
}

/**
 * A Select under a required Form.Item: antd's Form.Item hands it aria-required, which rc-select
 * puts on its wrapping div (no role there: an ARIA error); the label's asterisk and the
 * validation message still say it is required.
 */
function ShopSelect(props: SelectProps & { 'aria-required'?: unknown }) {
  const { 'aria-required': _required, ...rest } = props;
  return <Select {...rest} />;
}
