/** The permission guard of spec section 6 around a routed page; failure → /no-permission. */
import { useEffect, type ReactNode } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { canOpenRoute, type GuardedRoute } from '../../contract/access.js';
import { enterModule, sessionStore } from '../session/store.js';
import type { RouteEntry, RouteModule } from '../../runtime/route-config.js';

export function Guard({ route, module, children }: { route: GuardedRoute; module: RouteModule | null; children: ReactNode }) {
  const access = sessionStore.use((s) => s.access);
  const allowed = canOpenRoute(access, route);
  useEffect(() => {
    if (allowed) enterModule(module);
  }, [allowed, module]);
  if (!allowed) return <Navigate to="/no-permission" replace />;
  return <>{children}</>;
}

/** A manifest route: guard, then its page with the canonical path and the URL params. */
export function GuardedPage({ entry }: { entry: RouteEntry }) {
  const params = useParams() as Record<string, string>;
  const Page = entry.page;
  if (!Page || !entry.path) return null;
  return (
    <Guard route={entry} module={entry.module}>
      <Page path={entry.path} params={params} />
    </Guard>
  );
}
