import { BugOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Typography } from 'antd';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { onTrace, traceEntries } from '../../runtime/expr/trace.js';
import type { LoadedSchema } from '../../runtime/types.js';
import { InspectContext } from './inspect.js';

const json = (v: unknown) => {
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
};

/** Dev mode: a button on every schema page opening the schema id / version, live data and evaluated expressions. */
export function Inspector({ loaded, children }: { loaded: LoadedSchema; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<Record<string, unknown>>({});
  const [, setTick] = useState(0);
  useEffect(() => (open ? onTrace(() => setTick((t) => t + 1)) : undefined), [open]);
  const sink = useMemo(() => ({ publish: (d: Record<string, unknown>) => setData(d) }), []);
  return (
    <InspectContext.Provider value={sink}>
      {children}
      <Button
        data-testid="schema-inspector"
        icon={<BugOutlined />}
        style={{ position: 'fixed', right: 24, bottom: 24, zIndex: 1000 }}
        onClick={() => setOpen(true)}
      >
        {loaded.id} v{loaded.schema.version}
      </Button>
      <Drawer open={open} onClose={() => setOpen(false)} width={560} title={`${loaded.id} v${loaded.schema.version}`}>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label="id">{loaded.id}</Descriptions.Item>
          <Descriptions.Item label="kind">{loaded.schema.kind}</Descriptions.Item>
          <Descriptions.Item label="version">{loaded.schema.version}</Descriptions.Item>
          <Descriptions.Item label="schemaVersion">{loaded.schema.schemaVersion}</Descriptions.Item>
          <Descriptions.Item label="hash">{loaded.hash}</Descriptions.Item>
        </Descriptions>
        <Typography.Title level={5}>data</Typography.Title>
        <pre style={{ fontSize: 12, maxHeight: 300, overflow: 'auto' }}>{json(data)}</pre>
        <Typography.Title level={5}>expressions</Typography.Title>
        <pre style={{ fontSize: 12, maxHeight: 300, overflow: 'auto' }}>
          {traceEntries()
            .slice(-50)
            .map((e) => `{{ ${e.expression} }} → ${e.error ? `ERROR ${e.error}` : json(e.value)}`)
            .join('\n')}
        </pre>
      </Drawer>
    </InspectContext.Provider>
  );
}
