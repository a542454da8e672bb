import type { FastifyInstance } from 'fastify';

/** Security headers; the CSP allows no 'unsafe-eval' (the schema runtime must not need it). */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  frameAncestors: ["'none'"],
};

const dashed = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Headers of every reply that is not a JSON API route: the console's HTML, its assets, the
 * OpenAPI UI, 404s. Exactly what helmet sends with `{ contentSecurityPolicy: { useDefaults:
 * false, directives: CSP_DIRECTIVES }, crossOriginEmbedderPolicy: false, hsts: false }`
 * (server/plugins/security.test.ts compares them), worked out once instead of per request.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': Object.entries(CSP_DIRECTIVES)
    .map(([k, v]) => `${dashed(k)} ${v.join(' ')}`)
    .join(';'),
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/**
 * Headers of the JSON API routes (server/http/register.ts marks them): only those that mean
 * something for a reply that is data, never a document. Why each one is kept and each of
 * PAGE_HEADERS' others is left out: docs/architecture.md, "Security headers".
 * A route may still set its own (the schema route answers `Cache-Control: no-cache` + ETag).
 */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a JSON API route: gets API_HEADERS instead of PAGE_HEADERS */
    apiReply?: boolean;
  }
}

export async function registerSecurity(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.routeOptions.config?.apiReply ? API_HEADERS : PAGE_HEADERS);
    done();
  });
}
