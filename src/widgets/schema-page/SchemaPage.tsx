import { Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useRuntime } from '../../runtime/context.js';
import type { RouteHit } from '../../runtime/routes.js';
import { toProblems, useSchema } from '../../runtime/use-schema.js';
import type { SchemaProblem } from '../../runtime/types.js';
import { FormHost } from '../form/FormHost.js';
import { ErrorPanel } from './ErrorPanel.js';
import { Inspector } from './Inspector.js';
import { SchemaView } from './SchemaById.js';

export { RuntimeProvider } from './RuntimeProvider.js';

export interface SchemaPageProps {
  /** the route path (pattern like /admin_center/authCenter/role/edit/:id, or a concrete path) */
  path: string;
  /** URL params */
  params: Record<string, string>;
}

type Lookup = { status: 'loading' } | { status: 'found'; hit: RouteHit } | { status: 'none' } | { status: 'error'; problems: SchemaProblem[] };

/**
 * The page for every route without a bespoke screen: finds the schema whose route matches
 * (schema/list), loads and checks it, and renders it (list, form page, detail, tabs). Any
 * failure shows the error panel; the rest of the console keeps working.
 */
export function SchemaPage({ path, params }: SchemaPageProps) {
  const { loader } = useRuntime();
  const [lookup, setLookup] = useState<Lookup>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setLookup({ status: 'loading' });
    loader
      .findByRoute(path)
      .then((hit) => live && setLookup(hit ? { status: 'found', hit } : { status: 'none' }))
      .catch((e: unknown) => live && setLookup({ status: 'error', problems: toProblems('schema/list', e) }));
    return () => {
      live = false;
    };
  }, [loader, path]);
  if (lookup.status === 'loading') return <Spin style={{ display: 'block', margin: 48 }} />;
  if (lookup.status === 'error') return <ErrorPanel problems={lookup.problems} />;
  if (lookup.status === 'none') return <NoSchema path={path} />;
  const hit = lookup.hit;
  return <LoadedPage id={hit.item.id} route={hit.route} params={{ ...hit.params, ...params }} />;
}

function NoSchema({ path }: { path: string }) {
  const { env } = useRuntime();
  return <Result status="404" data-testid="schema-missing" title={env.t('runtime.page.missing')} subTitle={path} />;
}

function LoadedPage({ id, route, params }: { id: string; route: string; params: Record<string, string> }) {
  const { env } = useRuntime();
  const state = useSchema(id);
  if (state.status === 'loading') return <Spin style={{ display: 'block', margin: 48 }} />;
  if (state.status === 'error') return <ErrorPanel problems={state.problems} />;
  const page = (
    <FormHost>
      <SchemaView loaded={state.loaded} params={params} route={route} />
    </FormHost>
  );
  return env.devMode ? <Inspector loaded={state.loaded}>{page}</Inspector> : page;
}
