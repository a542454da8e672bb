import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { trackWrites } from './db/tracked.js';
import type { RouteDef } from './http/route.js';
import { checkRouteAccess, registerRoutes } from './http/register.js';
import { registerDocs } from './plugins/docs.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerSecurity } from './plugins/security.js';
import { registerStatic } from './plugins/static.js';
import { registerValidation } from './plugins/validation.js';
import { allRoutes } from './routes/index.js';
import { loadSchemas, stopSchemaWatch } from './schemas/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** the settings the app was built with (routes read e.g. cookieSecure via ctx.req.server) */
    backofficeConfig: Config;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  /** defaults to every route of server/routes/index.ts */
  routes?: RouteDef[];
}

/** Never logged: tokens, cookies, passwords (Fastify's default serializers skip bodies too). */
export const LOG_REDACT = [
  'req.headers["admin-token"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'body.password',
  'body.old_password',
  'body.new_password',
];

/**
 * The whole app as one Fastify instance (not listening): tests call `inject` or `listen`;
 * only server/server.ts listens for real. The database must already be migrated and seeded.
 * Throws when a route declares no access (deny by default).
 */
export async function buildApp({ config, db, routes }: AppOptions): Promise<FastifyInstance> {
  const list = routes ?? (await allRoutes());
  checkRouteAccess(list);
  // every schema is validated before the app exists: an invalid one stops the start,
  // naming the file, the JSON pointer and the reason (SchemaLoadError)
  await loadSchemas();
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' } },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: false },
  });
  app.decorate('backofficeConfig', config);
  registerValidation(app);
  // JSON as usual (prototype-poisoning safe), but an empty JSON body reads as {} (clients that
  // POST with no data still send the content type)
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body === '' ? done(null, {}) : json(req, body as string, done),
  );
  registerErrorHandling(app);
  await registerSecurity(app);
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: 50 * 1024 * 1024, files: 10 } });
  await registerDocs(app, config.version);
  app.addHook('onClose', async () => stopSchemaWatch());
  // writes through the app are tracked so short-lived read caches (sessions, list totals) drop
  // what a write made stale; pass a db already wrapped to share the tracker (tests do)
  registerRoutes(app, trackWrites(db), list);
  await registerStatic(app, config.staticDir);
  return app;
}
