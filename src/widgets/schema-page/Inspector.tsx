import { BugOutlined } from '@ant-design/icons';
import { Alert, Badge, Button, Descriptions, Drawer, Typography } from 'antd';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useRuntime } from '../../runtime/context.js';
import { onTrace, traceEntries } from '../../runtime/expr/trace.js';
import type { LoadedSchema } from '../../runtime/types.js';
import { InspectContext } from './inspect.js';
import type { WatchProblem, WatchStatus } from '../../contract/replies/schema.js';

const json = (v: unknown) => {
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
};

const WATCH_POLL_MS = 2000;

/** The dev schema watch's problems, polled while the inspector is mounted (dev mode only); null until the first reply. */
function useWatchStatus(): WatchStatus | 'failed' | null {
  const { env } = useRuntime();
  const [status, setStatus] = useState<WatchStatus | 'failed' | null>(null);
  useEffect(() => {
    let live = true;
    const poll = () =>
      env.http.get<WatchStatus>('schema/watch-status', undefined, { silent: true }).then(
        // a server without the route (older build) answers something else: treat it as not watching
        (s) => live && setStatus({ watching: Boolean(s?.watching), refused: s?.refused ?? [], standing: s?.standing ?? [] }),
        () => live && setStatus('failed'),
      );
    void poll();
    const timer = setInterval(() => void poll(), WATCH_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [env.http]);
  return status;
}

const problemLine = (p: WatchProblem) => `${p.file}#${p.pointer}: ${p.reason}`;

function WatchProblems({ status }: { status: WatchStatus | 'failed' | null }) {
  const { env } = useRuntime();
  if (status === null) return null;
  if (status === 'failed') return <Alert type="warning" showIcon message={env.t('runtime.inspector.watch.failed')} />;
  if (!status.watching) return <Typography.Text type="secondary">{env.t('runtime.inspector.watch.off')}</Typography.Text>;
  if (!status.refused.length && !status.standing.length) return <Typography.Text type="success">{env.t('runtime.inspector.watch.none')}</Typography.Text>;
  const list = (title: string, ps: WatchProblem[], testId: string) =>
    ps.length ? (
      <Alert
        type="error"
        showIcon
        style={{ marginBottom: 8 }}
        message={title}
        description={
          <pre data-testid={testId} style={{ fontSize: 12, margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {ps.map(problemLine).join('\n')}
          </pre>
        }
      />
    ) : null;
  return (
    <>
      {list(env.t('runtime.inspector.watch.refused'), status.refused, 'schema-watch-refused')}
      {list(env.t('runtime.inspector.watch.standing'), status.standing, 'schema-watch-standing')}
    </>
  );
}

/**
 * Dev mode: a button on every schema page opening the schema id / version, the dev schema
 * watch's errors (a badge counts them), live data and evaluated expressions.
 */
export function Inspector({ loaded, children }: { loaded: LoadedSchema; children: ReactNode }) {
  const { env } = useRuntime();
  const watch = useWatchStatus();
  const errorCount = watch && watch !== 'failed' ? watch.refused.length + watch.standing.length : 0;
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<Record<string, unknown>>({});
  const [, setTick] = useState(0);
  useEffect(() => (open ? onTrace(() => setTick((t) => t + 1)) : undefined), [open]);
  const sink = useMemo(() => ({ publish: (d: Record<string, unknown>) => setData(d) }), []);
  return (
    <InspectContext.Provider value={sink}>
      {children}
      <div style={{ position: 'fixed', right: 24, bottom: 24, zIndex: 1000 }}>
        <Badge count={errorCount} title={env.t('runtime.inspector.watch.badge', { count: errorCount })}>
          <Button data-testid="schema-inspector" icon={<BugOutlined />} danger={errorCount > 0} onClick={() => setOpen(true)}>
            {loaded.id} v{loaded.schema.version}
          </Button>
        </Badge>
      </div>
      <Drawer open={open} onClose={() => setOpen(false)} width={560} title={`${loaded.id} v${loaded.schema.version}`}>
        {/* the schema's own property names, as an editor writes them in the JSON file */}
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label="id">{loaded.id}</Descriptions.Item>
          <Descriptions.Item label="kind">{loaded.schema.kind}</Descriptions.Item>
          <Descriptions.Item label="version">{loaded.schema.version}</Descriptions.Item>
          <Descriptions.Item label="schemaVersion">{loaded.schema.schemaVersion}</Descriptions.Item>
          <Descriptions.Item label="hash">{loaded.hash}</Descriptions.Item>
        </Descriptions>
        <Typography.Title level={5}>{env.t('runtime.inspector.watch.title')}</Typography.Title>
        <WatchProblems status={watch} />
        <Typography.Title level={5}>{env.t('runtime.inspector.data')}</Typography.Title>
        <pre style={{ fontSize: 12, maxHeight: 300, overflow: 'auto' }}>{json(data)}</pre>
        <Typography.Title level={5}>{env.t('runtime.inspector.expressions')}</Typography.Title>
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
