import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.js';
import type { Queryable } from '../db/db.js';
import { RateLimitCounters, rateLimitStore } from '../auth/rate-limit-store.js';

/** An error the error handler turns into HTTP 429 with the envelope `{ code: 42901 }`. */
export class RateLimited extends Error {
  readonly statusCode = 429;
  readonly code = 'RATE_LIMITED';
  constructor(readonly retryAfter: number) {
    super(`too many requests, try again in ${retryAfter} s / 请求过于频繁，请 ${retryAfter} 秒后再试`);
  }
}

/** Named limits a route can ask for (RouteDef.rateLimit) instead of the global one. */
export type RouteLimit = 'login';

const WINDOW_MS = 60_000;

/**
 * @fastify/rate-limit for every route, per client address (RATE_LIMIT_PER_MINUTE, default 1200;
 * 0 turns it off), counted in the database so several instances share one count
 * (server/auth/rate-limit-store.ts). Sign-in has its own, lower limit (RATE_LIMIT_LOGIN_PER_MINUTE,
 * default 60) on top of the sign-in throttle. A refused request gets HTTP 429, Retry-After and
 * the envelope 42901. When the database cannot be reached the limit lets the request through.
 */
export async function registerRateLimit(app: FastifyInstance, db: Queryable, config: Config): Promise<void> {
  if (config.rateLimitPerMinute <= 0) return;
  const counters = new RateLimitCounters(db, { onError: (err) => app.log.warn({ err }, 'rate limit: could not write the counts') });
  app.addHook('onClose', async () => counters.close().catch(() => undefined));
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: WINDOW_MS,
    store: rateLimitStore(counters),
    skipOnError: true,
    errorResponseBuilder: (_req, ctx) => new RateLimited(Math.max(1, Math.ceil(ctx.ttl / 1000))),
  });
}

/**
 * The limiter hook of a route, to run first in its onRequest hooks (before the login check);
 * null when rate limiting is off. Routes registered this way set `config.rateLimit: false` so the
 * plugin does not add its global hook a second time.
 */
export function routeLimiter(app: FastifyInstance, limit: RouteLimit | undefined): onRequestHookHandler | null {
  if (!app.hasDecorator('rateLimit')) return null;
  const config = app.backofficeConfig;
  if (limit === 'login' && config.rateLimitLoginPerMinute > 0) {
    return app.rateLimit({ max: config.rateLimitLoginPerMinute, timeWindow: WINDOW_MS, groupId: 'login' }) as onRequestHookHandler;
  }
  return app.rateLimit() as onRequestHookHandler;
}
