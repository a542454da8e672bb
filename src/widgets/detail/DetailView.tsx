import { Alert, Descriptions, Space, Spin } from 'antd';
import { createElement, useMemo } from 'react';
import { isShown } from '../../runtime/actions.js';
import { getPath } from '../../runtime/api.js';
import { ParentReloadContext, useRuntime } from '../../runtime/context.js';
import { useDetailController } from '../../runtime/controllers/use-detail-controller.js';
import { resolveMap } from '../../runtime/expr/template.js';
import type { DetailSchema, LoadedSchema, SectionSpec } from '../../runtime/types.js';
import { ActionButtons } from '../actions/ActionButtons.js';
import { LiveMark } from '../LiveMark.js';
import { PlainCard } from '../PlainCard.js';
import { useFormHost } from '../form/FormHost.js';
import type { EmbedSchema } from '../schema-page/embedded.js';
import { useInspect } from '../schema-page/inspect.js';

/**
 * Detail page: load one record, draw description sections, embedded lists and widgets. The
 * embedded lists reload (quietly) whenever the record does: after an action, and every live
 * refresh (`refreshWhile`).
 */
export function DetailView({ loaded, params, embed: SchemaById }: { loaded: LoadedSchema<DetailSchema>; params: Record<string, unknown>; embed: EmbedSchema }) {
  const { env, registry, user } = useRuntime();
  const { openForm } = useFormHost();
  const schema = loaded.schema;
  const ctl = useDetailController(schema, { env, params, user });
  useInspect({ params, record: ctl.record });
  const scope = ctl.scope;
  const live = !!schema.refreshWhile;
  const parentReload = useMemo(() => ({ loads: ctl.loads, live }), [ctl.loads, live]);

  const section = (s: SectionSpec, si: number) => {
    if (!isShown(s, env, scope)) return null;
    const title = s.title ? env.t(s.title) : undefined;
    if (s.type === 'descriptions') {
      const items = s.items.filter((it) => isShown(it, env, scope));
      const spans = rowSpans(items.map((it) => it.span), s.columns ?? 2);
      return (
        <PlainCard key={s.key} title={title} size="small">
          <Descriptions column={s.columns ?? 2} bordered size="small">
            {items.map((it, i) => {
              const index = s.items.indexOf(it);
              const Comp = registry.get(it.widget ?? (it.enum ? 'EnumTag' : 'Text'), `/sections/${si}/items/${index}/widget`);
              return (
                <Descriptions.Item key={it.key} label={env.t(it.label)} span={spans[i]}>
                  {createElement(Comp, { ...(it.widgetProps ?? {}), value: getPath(ctl.record, it.dataIndex ?? it.key), record: ctl.record ?? {}, enumId: it.enum })}
                </Descriptions.Item>
              );
            })}
          </Descriptions>
        </PlainCard>
      );
    }
    if (s.type === 'list') {
      return (
        <PlainCard key={s.key} title={title} size="small">
          <SchemaById id={s.list} params={{ ...params, ...resolveMap(s.params, scope) }} />
        </PlainCard>
      );
    }
    const Comp = registry.get(s.widget, `/sections/${si}/widget`);
    return (
      <PlainCard key={s.key} title={title} size="small">
        {createElement(Comp, { ...(s.widgetProps ?? {}), value: getPath(ctl.record, s.dataIndex), record: ctl.record ?? {} })}
      </PlainCard>
    );
  };

  return (
    <PlainCard
      title={env.t(schema.title)}
      data-schema-id={loaded.id}
      extra={
        <Space>
          <LiveMark env={env} live={ctl.live} />
          <ActionButtons actions={schema.actions} host={{ env, scope, refresh: ctl.refresh, openForm }} />
        </Space>
      }
    >
      {ctl.error ? <Alert type="error" showIcon message={String((ctl.error as Error)?.message ?? ctl.error)} /> : null}
      <Spin spinning={ctl.loading}>
        <ParentReloadContext.Provider value={parentReload}>
          <Space direction="vertical" style={{ width: '100%' }} size={16}>
            {ctl.record ? schema.sections.map(section) : null}
          </Space>
        </ParentReloadContext.Provider>
      </Spin>
    </PlainCard>
  );
}

/**
 * Item spans that fill each row of a `column`-wide Descriptions: the last item of a row that the
 * next one would overflow (and the very last item) stretches to the row's end, as antd expects,
 * instead of leaving a gap antd warns about. Items hidden for this record are already left out.
 */
export function rowSpans(spans: ReadonlyArray<number | undefined>, column: number): Array<number | 'filled'> {
  const out: Array<number | 'filled'> = [];
  let used = 0;
  spans.forEach((span, i) => {
    const s = Math.min(Math.max(span ?? 1, 1), column);
    if (used > 0 && used + s > column) {
      out[i - 1] = 'filled';
      used = 0;
    }
    out.push(s);
    used = (used + s) % column;
  });
  if (used > 0 && out.length) out[out.length - 1] = 'filled';
  return out;
}
