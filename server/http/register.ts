import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allPermissionKeys } from '../../src/contract/permission-manifest.js';
import { Code } from '../../src/contract/codes.js';
import type { Db, Queryable } from '../db/db.js';
import { writeAudit } from '../auth/audit.js';
import { authenticate } from '../auth/sessions.js';
import { AppError, CommittedError } from './errors.js';
import type { Access, AuditEntry, JsonSchema, RouteContext, RouteDef, SessionUser } from './route.js';

export const routeUrl = (r: Pick<RouteDef, 'base' | 'path'>): string => `/api/${r.base ?? 'admin'}/${r.path}`;

/** Throws (the app refuses to start) when a route declares no valid access or an unknown key. */
export function checkRouteAccess(routes: RouteDef[], knownKeys = allPermissionKeys()): void {
  for (const r of routes) {
    const where = `${r.method} ${routeUrl(r)}`;
    const a = r.access as Access | undefined;
    if (a === 'public' || a === 'login') continue;
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
  if (!user) return false;
  if (access === 'login' || user.isSuperAdmin) return true;
  const keys = Array.isArray(access.permission) ? access.permission : [access.permission];
  return keys.some((k) => user.keys.has(k));
}

/** Object schemas refuse extra properties unless they say otherwise. */
const strict = (schema: JsonSchema | undefined): JsonSchema | undefined => {
  if (!schema) return undefined;
  if (schema.type === 'object' && !('additionalProperties' in schema)) return { ...schema, additionalProperties: false };
  return schema;
};

const envelope = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, data },
});

const clientIp = (req: FastifyRequest): string => req.ip ?? '';
const userAgent = (req: FastifyRequest): string => String(req.headers['user-agent'] ?? '');

/** `ctx.audit`: one shared function reading the context it is called on, not a closure per request. */
function audit(this: RouteContext, entry: AuditEntry): Promise<void> {
  const { db, user, req } = this;
  return writeAudit(db, { id: user?.id ?? null, email: user?.email ?? '', ip: clientIp(req), userAgent: userAgent(req) }, entry);
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

/**
 * Turns RouteDefs into Fastify routes: schemas (validation + OpenAPI), authentication,
 * access check, transaction for POST, envelope. See server/http/route.ts for the contract.
 */
export function registerRoutes(app: FastifyInstance, db: Db, routes: RouteDef[]): void {
  checkRouteAccess(routes);
  for (const route of routes) {
    const isPublic = route.access === 'public';
    app.route({
      method: route.method,
      url: routeUrl(route),
      // the lean header set of JSON API replies (server/plugins/security.ts)
      config: { apiReply: true },
      schema: {
        summary: route.summary,
        tags: route.tags ?? [route.path.split('/')[0]],
        ...(route.query ? { querystring: strict(route.query) } : {}),
        ...(route.body && route.method === 'POST' && !route.raw ? { body: strict(route.body) } : {}),
        ...(route.reply && !route.raw ? { response: { 200: envelope(route.reply) } } : {}),
        ...(isPublic ? {} : { security: [{ adminToken: [] }] }),
      },
      handler: async (req, reply) => {
        const user = isPublic ? null : await authenticate(db, req);
        if (!isPublic && !user) throw new AppError(Code.NOT_LOGGED_IN);
        if (!allowed(route.access, user)) throw new AppError(Code.FORBIDDEN);
        if (route.raw) {
          await route.handler(context(db, user, req, reply));
          return reply;
        }
        const data =
          route.method === 'POST'
            ? await inTransaction(db, (q) => route.handler(context(q, user, req, reply)))
            : await route.handler(context(db, user, req, reply));
        return { code: Code.OK, msg: 'ok', data: data ?? null };
      },
    });
  }
}
