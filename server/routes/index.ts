import type { RouteDef } from '../http/route.js';

/**
 * Every API route of the app, in one list. Each area keeps its routes in its own file and
 * adds one line here. The app refuses to start if a route declares no access.
 */
export async function allRoutes(): Promise<RouteDef[]> {
  const modules: Array<Promise<{ routes: RouteDef[] }>> = [
    // spine (session, accounts, roles, permissions, audit, config) — added by the server core
    import('./session.js'),
    import('./accounts.js'),
    import('./roles.js'),
    import('./permissions.js'),
    import('./audit-logs.js'),
    import('./config.js'),
    import('./jobs.js'),
    // module homes' live figures (issue 14)
    import('./home-stats.js'),
    // the ingestion API (bearer service tokens) and its token page — added with issue 14
    import('./service-tokens.js'),
    import('./ingest.js'),
    // schema runtime (schema/list, schema/detail) — added by the schema tooling
    import('./schema.js'),
    // the dev schema watch's problems (schema/watch-status), shown by the dev inspector
    import('./dev-schema-watch.js'),
    // business resources — added by the business backend
    import('../resources/index.js'),
    // the merchant side (public, capability tokens) — added with notification push
    import('./merchant.js'),
    // traces of answers (issue 21)
    import('./ai-traces.js'),
  ];
  return (await Promise.all(modules)).flatMap((m) => m.routes);
}
