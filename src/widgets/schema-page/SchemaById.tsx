import { Spin } from 'antd';
import { Suspense } from 'react';
import { SchemaScopeContext } from '../../runtime/context.js';
import { useSchema } from '../../runtime/use-schema.js';
import type { DetailSchema, FormSchema, ListSchema, LoadedSchema, TabsSchema } from '../../runtime/types.js';
import { ListView } from '../list/ListView.js';
import { useWidgetPreload } from './use-widget-preload.js';
import { LazyErrorPanel, viewOf } from './views.js';

/** Renders a loaded schema by kind. `embedded` lists keep their state in memory. */
export function SchemaView({
  loaded,
  params,
  route,
  embedded,
}: {
  loaded: LoadedSchema;
  params: Record<string, unknown>;
  route?: string;
  embedded?: boolean;
}) {
  const s = loaded.schema;
  let body;
  if (s.kind === 'list') body = <ListView loaded={loaded as LoadedSchema<ListSchema>} params={params} embedded={embedded} />;
  else if (s.kind === 'detail') {
    const DetailView = viewOf('detail');
    body = <DetailView loaded={loaded as LoadedSchema<DetailSchema>} params={params} embed={SchemaById} />;
  } else if (s.kind === 'tabs') {
    const TabsView = viewOf('tabs');
    body = <TabsView loaded={loaded as LoadedSchema<TabsSchema>} params={params} embed={SchemaById} />;
  } else {
    const modes = (['add', 'edit', 'view'] as const).filter((m) => s.modes[m]);
    const mode = modes.find((m) => route && s.modes[m]?.route === route) ?? (params.id !== undefined ? (modes.includes('edit') ? 'edit' : 'view') : modes[0]);
    const FormPage = viewOf('form');
    body = <FormPage loaded={loaded as LoadedSchema<FormSchema>} mode={mode} params={params} />;
  }
  return (
    <SchemaScopeContext.Provider value={{ schemaId: loaded.id, enums: loaded.enums, fields: loaded.fields }}>
      {/* detail / tabs / form renderers are chunks, normally loaded before this renders (prepareView) */}
      <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>{body}</Suspense>
    </SchemaScopeContext.Provider>
  );
}

/** Loads a schema by id and renders it embedded (detail sections, tabs). */
export function SchemaById({ id, params }: { id: string; params: Record<string, unknown> }) {
  const state = useSchema(id, useWidgetPreload());
  if (state.status === 'loading') return <Spin />;
  if (state.status === 'error')
    return (
      <Suspense fallback={<Spin />}>
        <LazyErrorPanel problems={state.problems} />
      </Suspense>
    );
  return <SchemaView loaded={state.loaded} params={params} embedded />;
}
