import { Card, Tabs } from 'antd';
import { useRuntime } from '../../runtime/context.js';
import { resolveMap } from '../../runtime/expr/template.js';
import { useUrlQuery } from '../../runtime/query.js';
import type { LoadedSchema, TabsSchema } from '../../runtime/types.js';
import type { EmbedSchema } from '../schema-page/embedded.js';

/** Several schemas under one route; the active tab lives in the URL query (`tab` by default). */
export function TabsView({ loaded, params, embed: SchemaById }: { loaded: LoadedSchema<TabsSchema>; params: Record<string, unknown>; embed: EmbedSchema }) {
  const { env, user } = useRuntime();
  const query = useUrlQuery();
  const schema = loaded.schema;
  const qk = schema.queryKey ?? 'tab';
  const tabs = schema.tabs.filter((t) => !t.permission || env.can(t.permission));
  const active = tabs.find((t) => t.key === query.values[qk])?.key ?? tabs[0]?.key;
  const scope = { params, query: query.values, user };
  return (
    <Card title={env.t(schema.title)} data-schema-id={loaded.id}>
      <Tabs
        activeKey={active}
        onChange={(k) => query.set({ [qk]: k })}
        destroyOnHidden
        items={tabs.map((t) => ({
          key: t.key,
          label: env.t(t.title),
          children: <SchemaById id={t.schema} params={{ ...params, ...resolveMap(t.params, scope) }} />,
        }))}
      />
    </Card>
  );
}
