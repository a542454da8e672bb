import { Spin } from 'antd';
import { SchemaScopeContext } from '../../runtime/context.js';
import { useSchema } from '../../runtime/use-schema.js';
import type { DetailSchema, FormSchema, ListSchema, LoadedSchema, TabsSchema } from '../../runtime/types.js';
import { DetailView } from '../detail/DetailView.js';
import { FormPage } from '../form/FormPage.js';
import { ListView } from '../list/ListView.js';
import { TabsView } from '../tabs/TabsView.js';
import { ErrorPanel } from './ErrorPanel.js';
import { useWidgetPreload } from './use-widget-preload.js';

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
  else if (s.kind === 'detail') body = <DetailView loaded={loaded as LoadedSchema<DetailSchema>} params={params} />;
  else if (s.kind === 'tabs') body = <TabsView loaded={loaded as LoadedSchema<TabsSchema>} params={params} />;
  else {
    const modes = (['add', 'edit', 'view'] as const).filter((m) => s.modes[m]);
    const mode = modes.find((m) => route && s.modes[m]?.route === route) ?? (params.id !== undefined ? (modes.includes('edit') ? 'edit' : 'view') : modes[0]);
    body = <FormPage loaded={loaded as LoadedSchema<FormSchema>} mode={mode} params={params} />;
  }
  return <SchemaScopeContext.Provider value={{ schemaId: loaded.id, enums: loaded.enums, fields: loaded.fields }}>{body}</SchemaScopeContext.Provider>;
}

/** Loads a schema by id and renders it embedded (detail sections, tabs). */
export function SchemaById({ id, params }: { id: string; params: Record<string, unknown> }) {
  const state = useSchema(id, useWidgetPreload());
  if (state.status === 'loading') return <Spin />;
  if (state.status === 'error') return <ErrorPanel problems={state.problems} />;
  return <SchemaView loaded={state.loaded} params={params} embedded />;
}
