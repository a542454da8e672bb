/**
 * scriptManage/playground: pick a prompt, a model server and a shop, type a customer message and
 * see the reply. There is no real model: `POST playground/run` returns a deterministic simulated
 * reply built from the prompt and the shop's policies, and the screen labels it as such.
 */
import { Alert, Button, Card, Col, Empty, Form, Input, List, Row, Select, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { PageProps } from '../../console/routes/config.js';
import { useRuntimeEnv } from '../../console/services.js';

interface Option {
  id: number;
  name: string;
  label?: string;
  model?: string;
}
interface RunResult {
  simulated: boolean;
  reply: string;
  rendered_prompt: string;
  model: string;
  matched_policies: Array<{ id: number; title: string; score: number }>;
}
interface RunForm {
  prompt_id: number;
  model_server_id: number;
  shop_id: number;
  message: string;
}

export default function Playground(_: PageProps) {
  const env = useRuntimeEnv();
  const [form] = Form.useForm<RunForm>();
  const [prompts, setPrompts] = useState<Option[]>([]);
  const [servers, setServers] = useState<Option[]>([]);
  const [shops, setShops] = useState<Option[]>([]);
  const [result, setResult] = useState<RunResult | null>(null);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    const page = { page: 1, page_size: 100 };
    env.http.get<{ list: Option[] }>('prompt/list', page).then((p) => setPrompts(p.list), () => undefined);
    env.http.get<{ list: Option[] }>('config/model-server/list', page).then((p) => setServers(p.list), () => undefined);
    env.http.get<Option[]>('session-area/shop-options', { limit: 500 }).then(setShops, () => undefined);
  }, [env.http]);

  const run = async (v: RunForm) => {
    setRunning(true);
    try {
      setResult(await env.http.post<RunResult>('playground/run', v));
    } catch {
      /* the http port has shown the error */
    } finally {
      setRunning(false);
    }
  };

  return (
    <div data-testid="prompt-playground">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {env.t('config.playground.title')}
      </Typography.Title>
      <Alert type="warning" showIcon message={env.t('config.playground.simulation')} style={{ marginBottom: 12 }} />
      <Row gutter={12}>
        <Col xs={24} lg={10}>
          <Card size="small">
            <Form form={form} layout="vertical" onFinish={run}>
              <Form.Item name="prompt_id" label={env.t('config.playground.prompt')} rules={[{ required: true, message: env.t('config.playground.pick') }]}>
                <Select options={prompts.map((p) => ({ value: p.id, label: p.name }))} />
              </Form.Item>
              <Form.Item name="model_server_id" label={env.t('config.playground.model')} rules={[{ required: true, message: env.t('config.playground.pick') }]}>
                <Select options={servers.map((s) => ({ value: s.id, label: `${s.name} (${s.model ?? ''})` }))} />
              </Form.Item>
              <Form.Item name="shop_id" label={env.t('config.playground.shop')} rules={[{ required: true, message: env.t('config.playground.pick') }]}>
                <Select showSearch optionFilterProp="label" options={shops.map((s) => ({ value: s.id, label: s.label ?? s.name }))} />
              </Form.Item>
              <Form.Item name="message" label={env.t('config.playground.message')} rules={[{ required: true, max: 2000, message: env.t('config.playground.pick') }]}>
                <Input.TextArea rows={4} placeholder={env.t('config.playground.messagePh')} />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={running} data-testid="playground-send">
                {env.t('config.playground.send')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card
            size="small"
            title={
              <>
                {env.t('config.playground.reply')} {result?.simulated && <Tag color="orange">{env.t('config.playground.simulatedTag')}</Tag>}
              </>
            }
          >
            {!result ? (
              <Empty description={env.t('config.playground.pick')} />
            ) : (
              <div data-testid="playground-result">
                <Typography.Paragraph style={{ background: '#e6f4ff', padding: 12, borderRadius: 8, color: 'rgba(0,0,0,0.88)' }}>
                  {result.reply}
                </Typography.Paragraph>
                <Typography.Text type="secondary">
                  {env.t('config.playground.usedModel')}: {result.model}
                </Typography.Text>
                <Typography.Title level={5}>{env.t('config.playground.matched')}</Typography.Title>
                <List
                  size="small"
                  dataSource={result.matched_policies}
                  locale={{ emptyText: env.t('config.playground.none') }}
                  renderItem={(p) => (
                    <List.Item>
                      #{p.id} {p.title} <Tag>{env.t('config.playground.score', { score: p.score })}</Tag>
                    </List.Item>
                  )}
                />
                <Typography.Title level={5}>{env.t('config.playground.rendered')}</Typography.Title>
                <pre style={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto', background: 'rgba(0,0,0,0.04)', padding: 8 }}>
                  {result.rendered_prompt}
                </pre>
              </div>
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
