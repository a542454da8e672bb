/** What one configuration answers with: an assistant, a prompt and a model server (none: the built-in responder). */
import { Col, Form, InputNumber, Row, Select } from 'antd';
import type { PlaygroundOptions } from '../../contract/replies/ai.js';
import type { RuntimeEnv } from '../../runtime/env.js';

/** `GET prompt/playground-options` (declared once: src/contract/replies/ai.ts) */
export type Options = PlaygroundOptions;

export interface SideConfig {
  assistant_id?: number;
  prompt_id?: number;
  /** 0: the built-in responder; -1: the shop and channel's model strategy */
  model_server_id: number;
  temperature?: number | null;
  top_p?: number | null;
  max_tokens?: number | null;
}

export const BUILTIN = 0;
export const STRATEGY = -1;

export function ConfigFields({ env, options, side }: { env: RuntimeEnv; options: Options; side: 'a' | 'b' }) {
  const form = Form.useFormInstance();
  const name = (f: keyof SideConfig) => [side, f];
  // choosing an assistant or a prompt brings its model server along (it stays editable)
  const follow = (serverId: number | null | undefined) => {
    if (serverId && options.model_servers.some((s) => s.id === serverId)) form.setFieldValue(name('model_server_id'), serverId);
  };
  return (
    <>
      <Form.Item name={name('assistant_id')} label={env.t('config.playground.assistant')}>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={env.t('config.playground.none')}
          data-testid={`playground-assistant-${side}`}
          options={options.assistants.map((a) => ({ value: a.id, label: a.name }))}
          onChange={(id) => follow(options.assistants.find((a) => a.id === id)?.model_server_id)}
        />
      </Form.Item>
      <Form.Item name={name('prompt_id')} label={env.t('config.playground.prompt')}>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={env.t('config.playground.none')}
          data-testid={`playground-prompt-${side}`}
          options={options.prompts.map((p) => ({ value: p.id, label: p.name }))}
          onChange={(id) => follow(options.prompts.find((p) => p.id === id)?.model_server_id)}
        />
      </Form.Item>
      <Form.Item name={name('model_server_id')} label={env.t('config.playground.model')} initialValue={BUILTIN}>
        <Select
          data-testid={`playground-model-${side}`}
          options={[
            { value: BUILTIN, label: env.t('config.playground.builtin') },
            { value: STRATEGY, label: env.t('config.playground.strategy') },
            ...options.model_servers.map((s) => ({ value: s.id, label: s.name })),
          ]}
        />
      </Form.Item>
      <Row gutter={8}>
        <Col span={8}>
          <Form.Item name={name('temperature')} label={env.t('config.playground.temperature')} tooltip={env.t('config.playground.samplingHelp')}>
            <InputNumber min={0} max={2} step={0.1} style={{ width: '100%' }} data-testid={`playground-temperature-${side}`} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name={name('top_p')} label="top_p">
            <InputNumber min={0.01} max={1} step={0.05} style={{ width: '100%' }} data-testid={`playground-top-p-${side}`} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name={name('max_tokens')} label={env.t('config.playground.maxTokens')}>
            <InputNumber min={1} max={200000} precision={0} style={{ width: '100%' }} data-testid={`playground-max-tokens-${side}`} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
