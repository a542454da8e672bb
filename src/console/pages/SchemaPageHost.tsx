/**
 * Mounts the runtime's `<SchemaPage path params>` for every manifest page without a bespoke
 * screen, inside the runtime's `RuntimeProvider` fed with the console's RuntimeEnv.
 * Both are looked up with import.meta.glob so the build works before the runtime exists;
 * until then the pending placeholder renders.
 */
import { lazy, type ComponentType, type ReactNode } from 'react';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { PageProps } from '../routes/config.js';
import { useRuntimeEnv } from '../services.js';

type ProviderProps = { env: RuntimeEnv; children?: ReactNode };
interface SchemaPageModule {
  SchemaPage?: ComponentType<PageProps>;
  RuntimeProvider?: ComponentType<ProviderProps>;
  default?: ComponentType<PageProps>;
}
interface ProviderModule {
  RuntimeProvider?: ComponentType<ProviderProps>;
}

const pageModules = import.meta.glob<SchemaPageModule>('../../widgets/schema-page/SchemaPage.tsx');
const providerModules = import.meta.glob<ProviderModule>([
  '../../runtime/RuntimeProvider.tsx',
  '../../runtime/provider.tsx',
  '../../runtime/context.tsx',
  '../../runtime/react/*.tsx',
]);

async function findProvider(pageModule: SchemaPageModule): Promise<ComponentType<ProviderProps> | undefined> {
  if (pageModule.RuntimeProvider) return pageModule.RuntimeProvider;
  for (const load of Object.values(providerModules)) {
    const m = await load();
    if (m.RuntimeProvider) return m.RuntimeProvider;
  }
  return undefined;
}

export const SchemaPageHost = lazy(async (): Promise<{ default: ComponentType<PageProps> }> => {
  const loadPage = Object.values(pageModules)[0];
  const pageModule = loadPage ? await loadPage() : undefined;
  const found = pageModule?.SchemaPage ?? pageModule?.default;
  if (!pageModule || !found) return import('./PendingPage.js');
  const Page: ComponentType<PageProps> = found;
  const Provider = await findProvider(pageModule);
  function HostedSchemaPage(props: PageProps) {
    const env = useRuntimeEnv();
    const page = <Page key={props.path} path={props.path} params={props.params} />;
    return Provider ? <Provider env={env}>{page}</Provider> : page;
  }
  return { default: HostedSchemaPage };
});
