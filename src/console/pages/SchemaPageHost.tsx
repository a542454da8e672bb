/**
 * Mounts the runtime's `<SchemaPage path params>` for every manifest page without a bespoke
 * screen, inside the runtime's `RuntimeProvider` fed with the console's RuntimeEnv, the
 * signed-in user and one schema loader per signed-in user (so the schema cache survives page
 * changes but never crosses accounts), which hands a schema out once the modules' texts it names
 * are loaded (i18n-instance.ts). Everything is loaded lazily: /login and the layout
 * never pull in the runtime. Lookups go through import.meta.glob so the build still works
 * when the runtime is absent; then the pending placeholder renders.
 */
import { lazy, useMemo, type ComponentType, type ReactNode } from 'react';
import type { HttpPort, RuntimeEnv, SchemaTexts } from '../../runtime/env.js';
import { http } from '../http/instance.js';
import { schemaTexts } from '../i18n-instance.js';
import type { PageProps } from '../../runtime/route-config.js';
import { useRuntimeEnv } from '../services.js';
import { sessionStore } from '../session/store.js';

interface ProviderProps {
  env: RuntimeEnv;
  children: ReactNode;
  user?: { id: number | string; email?: string; name?: string } | null;
  loader?: unknown;
}
interface SchemaPageModule {
  SchemaPage?: ComponentType<PageProps>;
  RuntimeProvider?: ComponentType<ProviderProps>;
  default?: ComponentType<PageProps>;
}
interface LoaderModule {
  createSchemaLoader?: (http: HttpPort, options?: { texts?: SchemaTexts }) => unknown;
}

const pageModules = import.meta.glob<SchemaPageModule>('../../widgets/schema-page/SchemaPage.tsx');
const loaderModules = import.meta.glob<LoaderModule>('../../runtime/loader.ts');

export const SchemaPageHost = lazy(async (): Promise<{ default: ComponentType<PageProps> }> => {
  const loadPage = Object.values(pageModules)[0];
  const pageModule = loadPage ? await loadPage() : undefined;
  const found = pageModule?.SchemaPage ?? pageModule?.default;
  if (!pageModule || !found) return import('./PendingPage.js');
  const Page: ComponentType<PageProps> = found;
  const Provider = pageModule.RuntimeProvider;
  const loaderModule = await Object.values(loaderModules)[0]?.();
  let shared: { userId: number | null; loader: unknown } | null = null;
  const loaderFor = (userId: number | null) => {
    if (!loaderModule?.createSchemaLoader) return undefined;
    if (!shared || shared.userId !== userId) shared = { userId, loader: loaderModule.createSchemaLoader(http, { texts: schemaTexts }) };
    return shared.loader;
  };

  function HostedSchemaPage(props: PageProps) {
    const env = useRuntimeEnv();
    const user = sessionStore.use((s) => s.user);
    const runtimeUser = useMemo(() => (user ? { id: user.id, email: user.email, name: user.name } : null), [user]);
    const page = <Page key={props.path} path={props.path} params={props.params} />;
    if (!Provider) return page;
    return (
      <Provider env={env} user={runtimeUser} loader={loaderFor(user?.id ?? null)}>
        {page}
      </Provider>
    );
  }
  return { default: HostedSchemaPage };
});
