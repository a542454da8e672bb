import { Spin } from 'antd';
import { Suspense } from 'react';
import { useRuntime } from '../../runtime/context.js';
import type { LoadedSchema } from '../../runtime/types.js';
import { useRouteSchema } from '../../runtime/use-schema.js';
import { LazyResult } from '../LazyResult.js';
import { FormHost } from '../form/FormHost.js';
import { SchemaView } from './SchemaById.js';
import { useWidgetPreload } from './use-widget-preload.js';
import { LazyErrorPanel, LazyInspector } from './views.js';

export { RuntimeProvider } from './RuntimeProvider.js';

export interface SchemaPageProps {
  /** the route path (pattern like /admin_center/authCenter/role/edit/:id, or a concrete path) */
  path: string;
  /** URL params */
  params: Record<string, string>;
}

/**
 * The page for every route without a bespoke screen: finds the schema whose route matches
 * (schema/list), loads and checks it and loads the code of the widgets it names, in one
 * step, then renders it (list, form page, detail, tabs). A spinner shows only while that step waits (never for a schema cached by
 * hash). Any failure shows the error panel; the rest of the console keeps working.
 */
export function SchemaPage({ path, params }: SchemaPageProps) {
  const state = useRouteSchema(path, useWidgetPreload());
  if (state.status === 'loading') return <Spin style={{ display: 'block', margin: 48 }} />;
  if (state.status === 'error')
    return (
      <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>
        <LazyErrorPanel problems={state.problems} />
      </Suspense>
    );
  if (state.status === 'none') return <NoSchema path={path} />;
  return <LoadedPage loaded={state.loaded} route={state.hit.route} params={{ ...state.hit.params, ...params }} />;
}

function NoSchema({ path }: { path: string }) {
  const { env } = useRuntime();
  // antd's Result does not pass data-* attributes on
  return (
    <div data-testid="schema-missing">
      <LazyResult status="404" title={env.t('runtime.page.missing')} subTitle={path} />
    </div>
  );
}

function LoadedPage({ loaded, route, params }: { loaded: LoadedSchema; route: string; params: Record<string, string> }) {
  const { env } = useRuntime();
  const page = (
    <FormHost>
      <SchemaView loaded={loaded} params={params} route={route} />
    </FormHost>
  );
  if (!env.devMode) return page;
  return (
    <Suspense fallback={page}>
      <LazyInspector loaded={loaded}>{page}</LazyInspector>
    </Suspense>
  );
}
