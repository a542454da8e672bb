import type { RouteDef } from '../http/route.js';

/**
 * Every API route of the app, in one list. Each area keeps its routes in its own file and
 * adds one line here. The app refuses to start if a route declares no access.
 */
export async function allRoutes(): Promise<RouteDef[]> {
  const modules: Array<Promise<{ routes: RouteDef[] }>> = [
    // spine (session, accounts, roles, permissions, audit, config) — added by the server core
    // schema runtime (schema/list, schema/detail) — added by the schema tooling
    // business resources — added by the business backend
  ];
  return (await Promise.all(modules)).flatMap((m) => m.routes);
}
