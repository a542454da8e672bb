import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { API_HEADERS, CSP_DIRECTIVES, PAGE_HEADERS, registerSecurity } from './security.js';

const SECURITY_HEADERS = /^(content-security-policy|cross-origin-|origin-agent-cluster|referrer-policy|strict-transport|x-(?!powered))/;
const pick = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => SECURITY_HEADERS.test(k) || k === 'cache-control'));

describe('security headers', () => {
  it('pages get exactly what helmet sends with our options (computed once, not per request)', async () => {
    const ref = Fastify();
    await ref.register(helmet, { contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES }, crossOriginEmbedderPolicy: false, hsts: false });
    ref.get('/', async () => 'x');
    const ours = Fastify();
    await registerSecurity(ours);
    ours.get('/', async () => 'x');
    const want = pick((await ref.inject('/')).headers);
    expect(Object.keys(want).length).toBeGreaterThan(8);
    expect(pick((await ours.inject('/')).headers)).toEqual(want);
    expect(PAGE_HEADERS).toEqual(want);
    // a path no route matches (the SPA fallback, /api 404s) is a page too
    expect(pick((await ours.inject('/nothing')).headers)).toEqual(want);
  });

  it('JSON API routes get the lean set; a route may still set its own cache header', async () => {
    const app = Fastify();
    await registerSecurity(app);
    app.get('/api/x', { config: { apiReply: true } }, async () => ({ ok: 1 }));
    app.get('/api/etag', { config: { apiReply: true } }, async (_req, reply) => reply.header('Cache-Control', 'no-cache').send({ ok: 1 }));
    const h = (await app.inject('/api/x')).headers;
    expect(pick(h)).toEqual(API_HEADERS);
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['cache-control']).toBe('no-store');
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    expect((await app.inject('/api/etag')).headers['cache-control']).toBe('no-cache');
  });
});
