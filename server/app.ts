import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { trackerOf, trackWrites } from './db/tracked.js';
import { SESSION_TABLES } from './auth/sessions.js';
import type { RouteDef } from './http/route.js';
import { checkRouteAccess, registerRoutes } from './http/register.js';
import { registerDocs } from './plugins/docs.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerSecurity } from './plugins/security.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { registerStatic } from './plugins/static.js';
import { registerValidation } from './plugins/validation.js';
import { lazySerializers } from './plugins/serialization.js';
import { clientErrorHandler, registerInputRules } from './plugins/input-rules.js';
import { allRoutes } from './routes/index.js';
import { attachRouteBodies } from './routes/schema-fields.js';
import { loadSchemas, stopSchemaWatch } from './schemas/index.js';
import type { ValidationMemo } from './schemas/read.js';
import { readMark, SCHEMAS_VALIDATED_MARK, writeMark } from './db/start-marks.js';
import { onPermissionTreeChange } from './schemas/permission-tree.js';
import { seedPermissions } from './db/seed-core.js';
import type { SqlDb } from './db/sql-db.js';
import type { Clock } from './jobs/clock.js';
import { JobEngine } from './jobs/engine.js';
import { jobKinds, tickers } from './jobs/kinds.js';
import { registerHealth } from './routes/health.js';
import { configureSecrets, secretSettings } from './ai/secrets.js';
import { configureOutbound } from './http/outbound.js';
import { registerJsonParser } from './http/json-shape.js';
import { registerTelephony } from './resources/voice/calls/callback.js';
import { registerShopifyWebhooks } from './resources/shops/shopify/webhook.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** the settings the app was built with (routes read e.g. cookieSecure via ctx.req.server) */
    backofficeConfig: Config;
    /** the work engine: `app.jobs.enqueue(tx, kind, data, opts)` (server/jobs) */
    jobs: JobEngine;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  /** defaults to every route of server/routes/index.ts */
  routes?: RouteDef[];
  /** the work engine; by default one is made over `db` with `config.workers` loops and started */
  jobs?: JobEngine;
  /** the engine's clock when it makes one (tests pass a ControlledClock) */
  clock?: Clock;
  /** called after each step of the build with its name (server.ts times the start's phases) */
  onPhase?: (name: string) => void;
  /**
   * Start only the engine's queue; the caller starts its workers (`app.jobs.startWorkers()`) —
   * server.ts does once it listens, so the first request does not wait for recovery and ticks.
   */
  workersLater?: boolean;
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
export async function buildApp({ config, db, routes, jobs, clock, onPhase, workersLater }: AppOptions): Promise<FastifyInstance> {
  const phase = onPhase ?? (() => {});
  const list = routes ?? (await allRoutes());
  checkRouteAccess(list);
  phase('app: import routes');
  // every schema is validated before the app exists: an invalid one stops the start,
  // naming the file, the JSON pointer and the reason (SchemaLoadError). A document that passed
  // the same meta-schema check at an earlier start on this database is not checked again (the
  // memo: server/schemas/read.ts); every other check still runs on every document.
  const kept = await readMark<ValidationMemo>(db, SCHEMAS_VALIDATED_MARK);
  const memo: ValidationMemo =
    kept && typeof kept.validators === 'string' && Array.isArray(kept.keys) ? { validators: kept.validators, keys: kept.keys } : { validators: '', keys: [] };
  await loadSchemas(undefined, { memo });
  if (memo.changed) await writeMark(db, SCHEMAS_VALIDATED_MARK, { validators: memo.validators, keys: memo.keys });
  phase('app: schemas');
  // a menu page added, changed or renamed under the dev watch (or a locale title edited) gets its
  // permission row at once, so a role can be granted it without a restart (server/schemas/permission-tree.ts)
  const stopTreeSync = onPermissionTreeChange((tree) =>
    db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock(724312)');
      await seedPermissions(q, tree);
    }),
  );
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' } },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: false },
    clientErrorHandler,
    // reply serializers compile on a route's first reply, not all at start (server/plugins/serialization.ts)
    schemaController: lazySerializers(),
    // a plugin's start (cookie, swagger-ui, routes) is bounded by 10 s by default: at load 15–27
    // on 2 cores the test servers of three helpers missed it ("did not start in time") though
    // nothing was wrong; a slow start is not a fault, a stuck one still ends the start
    pluginTimeout: 60_000,
  });
  app.decorate('backofficeConfig', config);
  // the key that encrypts model servers' API keys (SECRET_KEY, else a key file in the data dir)
  if (configureSecrets(secretSettings(config)).source === 'none') app.log.warn('no SECRET_KEY and no DATA_DIR on PostgreSQL: API keys of model servers cannot be stored (docs/ai.md)');
  // where calls to user-typed addresses may go (server/http/outbound.ts; the environment is read too)
  configureOutbound({ allowPrivate: config.outboundAllowPrivate, allowHosts: config.outboundAllowHosts });
  const tracked = trackWrites(db);
  const engine =
    jobs ??
    new JobEngine({
      db: tracked as SqlDb,
      kinds: jobKinds,
      tickers,
      clock,
      concurrency: config.workers,
      bossSchema: config.jobsSchema,
      pollSeconds: config.jobsPollSeconds,
      log: app.log,
    });
  app.decorate('jobs', engine);
  // another instance ended a session or changed keys (PostgreSQL NOTIFY from the triggers of
  // migration 0026): drop the kept session look-ups at once instead of after SESSION_CACHE_MS.
  // On PGlite there is one process, whose own writes already drop them.
  if ((tracked as SqlDb).listen) {
    const stop = (tracked as SqlDb).listen!('session_grants', () => trackerOf(tracked)?.bump(SESSION_TABLES));
    app.addHook('onClose', stop);
  }
  if (!jobs) {
    await (workersLater ? engine.startQueue() : engine.start());
    app.addHook('onClose', async () => engine.stop());
  }
  phase('app: work engine');
  registerHealth(app, tracked);
  registerValidation(app);
  registerInputRules(app);
  // JSON as usual (prototype-poisoning safe), an empty JSON body read as {}, and the shape limits
  // (depth, array length, keys, string length) checked on the text before it is parsed
  registerJsonParser(app);
  registerErrorHandling(app);
  await registerSecurity(app);
  await app.register(cookie);
  // a request limit per address on every route registered after this (health checks are before)
  await registerRateLimit(app, tracked, config);
  await app.register(multipart, { limits: { fileSize: 50 * 1024 * 1024, files: 10 } });
  await registerDocs(app, config.version);
  phase('app: plugins');
  app.addHook('onClose', async () => {
    stopSchemaWatch();
    stopTreeSync();
  });
  // the body schemas a form's schema/detail serves as its `fields` (server/routes/schema-fields.ts)
  attachRouteBodies(app, list);
  // writes through the app are tracked so short-lived read caches (sessions, list totals) drop
  // what a write made stale; pass a db already wrapped to share the tracker (tests do)
  registerRoutes(app, tracked, list);
  // the telephony provider's signed status callback (public, form-encoded: server/resources/voice/calls/callback.ts)
  await registerTelephony(app, tracked);
  // Shopify's signed webhooks (public, raw JSON body: server/resources/shops/shopify/webhook.ts)
  await registerShopifyWebhooks(app, tracked);
  await registerStatic(app, config.staticDir);
  phase('app: routes');
  return app;
}
