/**
 * Mounts the runtime's `<SchemaPage path params>` for every manifest page without a bespoke
 * screen, inside the runtime's `RuntimeProvider` fed with the console's RuntimeEnv, the
 * signed-in user and one schema loader per signed-in user (so the schema cache survives page
 * changes but never crosses accounts), which hands a schema out once the modules' texts it names
 * are loaded (i18n-instance.ts). Everything is loaded lazily: /login and the layout never pull in
 * the runtime.
 */
import { lazy, useMemo, type ComponentType } from 'react';
import type { SchemaLoader } from '../../runtime/loader.js';
import type { PageProps } from '../../runtime/route-config.js';
import { http } from '../http/instance.js';
import { schemaTexts } from '../i18n-instance.js';
import { useRuntimeEnv } from '../services.js';
import { sessionStore } from '../session/store.js';

export const SchemaPageHost = lazy(async (): Promise<{ default: ComponentType<PageProps> }> => {
  const [{ SchemaPage, RuntimeProvider }, { createSchemaLoader }] = await Promise.all([
    import('../../widgets/schema-page/SchemaPage.js'),
    import('../../runtime/loader.js'),
  ]);
  let shared: { userId: number | null; loader: SchemaLoader } | null = null;
  const loaderFor = (userId: number | null) => {
    if (!shared || shared.userId !== userId) shared = { userId, loader: createSchemaLoader(http, { texts: schemaTexts }) };
    return shared.loader;
  };

  function HostedSchemaPage(props: PageProps) {
    const env = useRuntimeEnv();
    const user = sessionStore.use((s) => s.user);
    const runtimeUser = useMemo(() => (user ? { id: user.id, email: user.email, name: user.name } : null), [user]);
    return (
      <RuntimeProvider env={env} user={runtimeUser} loader={loaderFor(user?.id ?? null)}>
        <SchemaPage key={props.path} path={props.path} params={props.params} />
      </RuntimeProvider>
    );
  }
  return { default: HostedSchemaPage };
});
