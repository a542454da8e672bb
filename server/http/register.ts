import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestHookHandler } from 'fastify';
import { allPermissionKeys } from '../../src/contract/permission-manifest.js';
import { diskPermissionTree } from '../schemas/permission-tree.js';
import { Code } from '../../src/contract/codes.js';
import type { Db, Queryable } from '../db/db.js';
import { writeAudit } from '../auth/audit.js';
import { authenticate, sessionRules } from '../auth/sessions.js';
import { authenticateService, INGEST_SCOPES, serviceActorEmail } from '../auth/service-tokens.js';
import { routeLimiter } from '../plugins/rate-limit.js';
import { AppError, CommittedError } from './errors.js';
import type { Access, AuditEntry, JsonSchema, RouteContext, RouteDef, SessionUser } from './route.js';
import { schemaGrantCheck } from '../schemas/grants.js';

export const routeUrl = (r: Pick<RouteDef, 'base' | 'path'>): string => `/api/${r.base ?? 'admin'}/${r.path}`;

/** Throws (the app refuses to start) when a route declares no valid access or an unknown key. */
export function checkRouteAccess(routes: RouteDef[], knownKeys = allPermissionKeys(diskPermissionTree())): void {
  for (const r of routes) {
    const where = `${r.method} ${routeUrl(r)}`;
    const a = r.access as Access | undefined;
    if (a === 'public' || a === 'login') continue;
    if (a && typeof a === 'object' && 'service' in a) {
      if (!(INGEST_SCOPES as readonly string[]).includes(a.service)) throw new Error(`route ${where} names service scope "${String(a.service)}", which is not one of ${INGEST_SCOPES.join(', ')}`);
      continue;
    }
    if (!a || typeof a !== 'object' || !('permission' in a)) {
      throw new Error(`route ${where} declares no access (deny by default): set access to 'public', 'login' or { permission }`);
    }
    const keys = Array.isArray(a.permission) ? a.permission : [a.permission];
    if (keys.length === 0) throw new Error(`route ${where} has an empty permission list`);
    for (const k of keys) {
      if (typeof k !== 'string' || !knownKeys.has(k)) {
        throw new Error(`route ${where} names permission "${String(k)}", which is not in the manifest`);
      }
    }
  }
}

export function allowed(access: Access, user: SessionUser | null): boolean {
  if (access === 'public') return true;
  // a service route is never open to a console session, not even a super admin's
  if (!user || (typeof access === 'object' && 'service' in access)) return false;
  if (access === 'login' || user.isSuperAdmin) return true;
  const p = (access as { permission: string | string[] }).permission;
  const keys = Array.isArray(p) ? p : [p];
  return keys.some((k) => user.keys.has(k));
}

const INT4 = { minimum: -2147483648, maximum: 2147483647 };

/**
 * Rules every route's schema gets once: object schemas refuse extra properties unless they say
 * otherwise, and an integer without bounds is bounded to what the database stores (an id of
 * 99999999999 is a 40001 naming the field, not a database error).
 */
const strict = (schema: JsonSchema | undefined): JsonSchema | undefined => {
  if (!schema) return undefined;
  let out = schema;
  if (schema.type === 'integer') {
    out = { ...INT4, ...schema };
  }
  if (schema.type === 'object' && !('additionalProperties' in schema)) out = { ...out, additionalProperties: false };
  if (out.properties && typeof out.properties === 'object') {
    const props = Object.fromEntries(Object.entries(out.properties as Record<string, JsonSchema>).map(([k, v]) => [k, strictNested(v)]));
    out = { ...out, properties: props };
  }
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out = { ...out, items: strictNested(out.items as JsonSchema) };
  return out;
};

/** nested schemas get the integer bounds only (their additionalProperties stay as declared) */
const strictNested = (schema: JsonSchema): JsonSchema => {
  if (!schema || typeof schema !== 'object') return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  let out = types.includes('integer') ? { ...INT4, ...schema } : schema;
  if (out.properties && typeof out.properties === 'object') {
    out = { ...out, properties: Object.fromEntries(Object.entries(out.properties as Record<string, JsonSchema>).map(([k, v]) => [k, strictNested(v)])) };
  }
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out = { ...out, items: strictNested(out.items as JsonSchema) };
  return out;
};

const envelope = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, data },
});

/**
 * The OpenAPI `responses` of a `raw` route, whose handler sends the reply itself (so Fastify
 * does not serialise it with a schema): bytes under their media type (`FileReply`), else the
 * envelope of the declared `data`. Given to @fastify/swagger through the route's
 * `swaggerTransform`, for the document only.
 */
const docsOnlyReply = (reply: JsonSchema) => {
  const media = Array.isArray(reply['x-media-types']) ? (reply['x-media-types'] as string[]) : null;
  const orData = reply['x-or-data'] as JsonSchema | undefined;
  const body = media
    ? {
        description: String(reply.description ?? 'bytes'),
        content: {
          ...Object.fromEntries(media.map((m) => [m, { schema: { type: 'string', format: 'binary' } }])),
          ...(orData ? { 'application/json': { schema: envelope(orData) } } : {}),
        },
      }
    : envelope(reply);
  return ({ schema, url }: { schema: FastifySchema; url: string }) => ({ schema: { ...schema, response: { 200: body } }, url });
};

const clientIp = (req: FastifyRequest): string => req.ip ?? '';
const userAgent = (req: FastifyRequest): string => String(req.headers['user-agent'] ?? '');

/** `ctx.audit`: one shared function reading the context it is called on, not a closure per request. */
function audit(this: RouteContext, entry: AuditEntry): Promise<void> {
  const { db, user, req } = this;
  const email = user?.email ?? (req.serviceToken ? serviceActorEmail(req.serviceToken) : '');
  return writeAudit(db, { id: user?.id ?? null, email, ip: clientIp(req), userAgent: userAgent(req) }, entry);
}

function context(db: Queryable, user: SessionUser | null, req: FastifyRequest, reply: FastifyReply): RouteContext {
  return {
    db,
    user,
    query: (req.query ?? {}) as Record<string, unknown>,
    body: (req.body ?? {}) as Record<string, unknown>,
    req,
    reply,
    audit,
  };
}

/** an id the refused call named (body or query `id`), for the audit row's target */
const namedId = (req: FastifyRequest): string | null => {
  for (const src of [req.body, req.query]) {
    const id = src && typeof src === 'object' ? (src as Record<string, unknown>).id : undefined;
    if (typeof id === 'number' || (typeof id === 'string' && id.length <= 200)) return String(id);
  }
  return null;
};

/**
 * A refused call (40003: the access check, or a rule such as the privilege ceiling) leaves an
 * audit row. It is one INSERT on the app's handle, outside the request's transaction (which has
 * rolled back by now), with what is already known: no look-up, no body (only the route and the
 * reason). A failure to write it is logged and does not change the reply.
 */
async function auditRefusal(db: Db, route: RouteDef, user: SessionUser | null, req: FastifyRequest, err: AppError): Promise<void> {
  try {
    await writeAudit(
      db,
      { id: user?.id ?? null, email: user?.email ?? (req.serviceToken ? serviceActorEmail(req.serviceToken) : ''), ip: clientIp(req), userAgent: userAgent(req) },
      { action: 'forbidden', resource: route.path.split('/')[0], targetId: namedId(req), after: { route: `${route.method} ${routeUrl(route)}`, reason: err.message } },
    );
  } catch (e) {
    req.log.warn({ err: e, route: route.path }, 'could not write the audit row of a refused call');
  }
}

const COMMITTED = Symbol('committed');

/** Runs a POST handler in one transaction; a CommittedError commits and is rethrown after. */
async function inTransaction(db: Db, fn: (q: Queryable) => Promise<unknown>): Promise<unknown> {
  const out = await db.tx(async (q) => {
    try {
      return await fn(q);
    } catch (err) {
      if (err instanceof CommittedError) return { [COMMITTED]: err };
      throw err;
    }
  });
  if (out && typeof out === 'object' && COMMITTED in out) throw (out as { [COMMITTED]: CommittedError })[COMMITTED];
  return out;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in account, set by the route's login check (null on public routes) */
    sessionUser: SessionUser | null;
  }
}

/**
 * Turns RouteDefs into Fastify routes: schemas (validation + OpenAPI), authentication,
 * access check, transaction for POST, envelope. See server/http/route.ts for the contract.
 *
 * Each route's onRequest hooks are, in order: the request limit (server/plugins/rate-limit.ts,
 * when on), then the login and access check — before the body is read or validated, so an
 * anonymous caller gets 20001 and one without the key 40003 (audited) whatever it sent.
 */
export function registerRoutes(app: FastifyInstance, db: Db, routes: RouteDef[]): void {
  checkRouteAccess(routes);
  if (!app.hasRequestDecorator('sessionUser')) app.decorateRequest('sessionUser', null);
  if (!app.hasRequestDecorator('serviceToken')) app.decorateRequest('serviceToken', null);
  const rules = sessionRules(app.backofficeConfig);
  // typed through @fastify/type-provider-typebox like every TypeBox route schema (route.ts `route()`)
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // a page's permission also opens the page's own read calls (server/schemas/grants.ts): asked
  // only when the route's declared keys refused; derived now and again when the schemas change
  const grants = schemaGrantCheck(routes);
  grants.table();
  for (const route of routes) {
    const isPublic = route.access === 'public';
    const checkAccess: onRequestHookHandler = async (req) => {
      const user = await authenticate(db, req, rules);
      if (!user) throw new AppError(Code.NOT_LOGGED_IN);
      req.sessionUser = user;
      if (!allowed(route.access, user) && !grants.allows(route, user)) {
        const err = new AppError(Code.FORBIDDEN);
        await auditRefusal(db, route, user, req, err);
        throw err;
      }
    };
    /**
     * A service route (the ingestion API) is authenticated by its bearer token alone: no session
     * is looked up and no cookie is read, so the console's header + cookie check — which is also
     * what keeps other sites from making calls in a signed-in browser's name — does not apply:
     * a browser never attaches a bearer token by itself.
     */
    const service = typeof route.access === 'object' && 'service' in route.access ? route.access.service : null;
    const checkService: onRequestHookHandler = async (req) => {
      const caller = await authenticateService(db, req);
      if (!caller) throw new AppError(Code.NOT_LOGGED_IN, 'missing, unknown or revoked service token / 服务令牌缺失、无效或已吊销');
      req.serviceToken = caller;
      if (!caller.scopes.includes(service as string)) {
        const err = new AppError(Code.FORBIDDEN, `this service token lacks the scope "${service}" / 该服务令牌没有 “${service}” 权限范围`);
        await auditRefusal(db, route, null, req, err);
        throw err;
      }
    };
    const limiter = routeLimiter(app, route.rateLimit);
    const onRequest = [...(limiter ? [limiter] : []), ...(isPublic ? [] : [service ? checkService : checkAccess])];
    api.route({
      method: route.method,
      url: routeUrl(route),
      // the lean header set of JSON API replies (server/plugins/security.ts); the request limit
      // runs as the first onRequest hook below instead of where the plugin would add it
      config: { apiReply: true, rateLimit: false, ...(route.raw ? { swaggerTransform: docsOnlyReply(route.reply) } : {}) },
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      ...(onRequest.length ? { onRequest } : {}),
      schema: {
        summary: route.summary,
        tags: route.tags ?? [route.path.split('/')[0]],
        ...(route.query ? { querystring: strict(route.query) } : {}),
        ...(route.body && route.method === 'POST' && !route.raw ? { body: strict(route.body) } : {}),
        ...(route.reply && !route.raw ? { response: { 200: envelope(route.reply) } } : {}),
        ...(isPublic ? {} : { security: [service ? { serviceToken: [] } : { adminToken: [] }] }),
      },
      handler: async (req, reply) => {
        const user = req.sessionUser;
        try {
          if (route.raw) {
            await route.handler(context(db, user, req, reply));
            return reply;
          }
          const data =
            route.method === 'POST' && route.transaction !== false
              ? await inTransaction(db, (q) => route.handler(context(q, user, req, reply)))
              : await route.handler(context(db, user, req, reply));
          return { code: Code.OK, msg: 'ok', data: data ?? null };
        } catch (err) {
          // a rule inside the handler refused (e.g. the privilege ceiling)
          if (err instanceof AppError && err.code === Code.FORBIDDEN) await auditRefusal(db, route, user, req, err);
          throw err;
        }
      },
    });
  }
}
